import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { readAdminToken } from '../admin-session';

/** Protected pages send visitors without an adminToken to the login page. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!readAdminToken()) return <Navigate to="/admin/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}
