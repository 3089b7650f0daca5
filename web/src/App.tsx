import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LocationPage } from './booking/LocationPage';
import { RouteErrorBoundary } from './components/RouteErrorBoundary';
import { LoadingScreen } from './components/StatusScreens';

// The location page is what embedded visitors open, so only it is in the entry chunk; the other
// pages load when visited. Visitors never download the admin area (loaded on /admin only).
const HomePage = lazy(() => import('./home/HomePage').then((m) => ({ default: m.HomePage })));
const NightWizardPage = lazy(() =>
  import('./night/NightWizardPage').then((m) => ({ default: m.NightWizardPage })),
);
const BookingCompletePage = lazy(() =>
  import('./complete/BookingCompletePage').then((m) => ({ default: m.BookingCompletePage })),
);
const MyBookingPage = lazy(() =>
  import('./my-booking/MyBookingPage').then((m) => ({ default: m.MyBookingPage })),
);
const AdminApp = lazy(() => import('./admin/AdminApp'));

/** A page: loaded on demand, and behind its own error boundary (a failed chunk reloads once). */
const loading = (page: ReactNode) => (
  <RouteErrorBoundary>
    <Suspense fallback={<LoadingScreen />}>{page}</Suspense>
  </RouteErrorBoundary>
);

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={loading(<HomePage />)} />
      <Route path="/booking-notte" element={loading(<NightWizardPage />)} />
      <Route path="/booking-notte/:location" element={loading(<NightWizardPage />)} />
      <Route path="/booking-complete" element={loading(<BookingCompletePage />)} />
      <Route path="/booking-completa" element={loading(<BookingCompletePage />)} />
      <Route path="/my-booking/:token" element={loading(<MyBookingPage />)} />
      <Route path="/admin/*" element={loading(<AdminApp />)} />
      <Route
        path="/:location/*"
        element={
          <RouteErrorBoundary>
            <LocationPage />
          </RouteErrorBoundary>
        }
      />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
