import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { MainPage } from './routes/main-page';

// Only the main page is in the first load; the auth-return screen and the 404 page are their own chunks.
const AuthReturnPage = lazy(() =>
  import('./routes/auth-return-page').then((m) => ({ default: m.AuthReturnPage })),
);
// The operator console is split out of the main bundle: the main page's first load never carries it.
const AdminPage = lazy(() => import('./routes/admin-page').then((m) => ({ default: m.AdminPage })));
const NotFoundPage = lazy(() => import('./routes/not-found-page').then((m) => ({ default: m.NotFoundPage })));

/** While the auth-return chunk loads, the screen is already the black overlay it will fade its image into. */
const blackScreen = <div className="auth-return-overlay fixed inset-0 bg-black" />;

/** The routes of SPEC §2 (the server answers these four paths with index.html). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<MainPage />} />
      <Route path="/r/:handle" element={<MainPage />} />
      <Route
        path="/auth/callback"
        element={
          <Suspense fallback={blackScreen}>
            <AuthReturnPage />
          </Suspense>
        }
      />
      <Route
        path="/linked"
        element={
          <Suspense fallback={blackScreen}>
            <AuthReturnPage />
          </Suspense>
        }
      />
      <Route
        path="/admin/*"
        element={
          <Suspense fallback={<div className="min-h-screen bg-night" />}>
            <AdminPage />
          </Suspense>
        }
      />
      <Route
        path="*"
        element={
          <Suspense fallback={null}>
            <NotFoundPage />
          </Suspense>
        }
      />
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
