import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { setUnauthorizedHandler } from './admin-api';
import { AdminLayout } from './components/AdminLayout';
import { RequireAdmin } from './components/RequireAdmin';
import { AdvancedPage } from './pages/AdvancedPage';
import { BookingsPage } from './pages/BookingsPage';
import { DashboardPage } from './pages/DashboardPage';
import { DiscountsPage } from './pages/DiscountsPage';
import { IncassiPage } from './takings/IncassiPage';
import { LocationSettingsPage } from './pages/LocationSettingsPage';
import { LocationsPage } from './pages/LocationsPage';
import { LockerStatusPage } from './pages/LockerStatusPage';
import { ArchiveLogPage, ErrorLogPage, ProcessLogPage } from './pages/LogPages';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SettingsLayout } from './pages/SettingsLayout';
import { SystemSettingsPage } from './pages/SystemSettingsPage';
import { UsersPage } from './pages/UsersPage';
import { createAdminQueryClient } from './query/query-client';
import './admin.css';

/** The admin area under /admin (lazy-loaded by App.tsx, so visitors never download it). */
export default function AdminApp() {
  const navigate = useNavigate();
  const [queryClient] = useState(createAdminQueryClient);

  // An expired or revoked token anywhere sends the operator back to the login page, and what was
  // read for that session is forgotten (the next account may see less).
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        queryClient.clear();
        navigate('/admin/login', { replace: true });
      }),
    [navigate, queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <div className="adm-root">
        <Routes>
          <Route path="login" element={<LoginPage />} />
          <Route
            element={
              <RequireAdmin>
                <AdminLayout />
              </RequireAdmin>
            }
          >
            <Route index element={<Navigate to="dashboard" replace />} />
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="locker-status" element={<LockerStatusPage />} />
            <Route path="bookings" element={<BookingsPage />} />
            <Route path="advanced" element={<AdvancedPage />} />
            <Route path="incassi" element={<IncassiPage />} />
            <Route path="users" element={<Navigate to="/admin/users/all" replace />} />
            <Route path="users/all" element={<UsersPage />} />
            <Route path="users/roles" element={<UsersPage />} />
            <Route path="locations" element={<LocationsPage />} />
            <Route path="discounts" element={<DiscountsPage />} />
            <Route path="settings" element={<SettingsLayout />}>
              <Route index element={<LocationSettingsPage />} />
              <Route path="prices" element={<LocationSettingsPage />} />
              <Route path="block-windows" element={<SystemSettingsPage />} />
            </Route>
            <Route path="logs" element={<ErrorLogPage />} />
            <Route path="logs/archive" element={<ArchiveLogPage />} />
            <Route path="logs/pm2" element={<ProcessLogPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </div>
    </QueryClientProvider>
  );
}
