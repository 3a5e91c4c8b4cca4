import { BrowserRouter, Route, Routes } from 'react-router';
import { AuthReturnPage } from './routes/auth-return-page';
import { MainPage } from './routes/main-page';
import { NotFoundPage } from './routes/not-found-page';

/** The routes of SPEC §2 (the server answers these four paths with index.html). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<MainPage />} />
      <Route path="/r/:handle" element={<MainPage />} />
      <Route path="/auth/callback" element={<AuthReturnPage />} />
      <Route path="/linked" element={<AuthReturnPage />} />
      <Route path="*" element={<NotFoundPage />} />
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
