import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { isAdminSignedIn } from '../admin-session';

/** Protected pages send visitors who have not logged in to the login page (a 401 does it later too). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!isAdminSignedIn()) return <Navigate to="/admin/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}
