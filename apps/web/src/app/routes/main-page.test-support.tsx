import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { fakeReferralService, ok, type FakeRoute } from '../../test/fake-referral-service';
import { renderWithProviders } from '../../test/render-with-providers';
import { MainPage } from './main-page';

/** What the main page's test files share: the services it calls, the page at a path, and its card button. */
export const authorizeUrl = 'http://localhost:3000/x-sim/i/oauth2/authorize?state=s';

export function serve(routes: Record<string, FakeRoute | FakeRoute[]> = {}) {
  return fakeReferralService({
    'GET /api/public/announcements': new Response(
      JSON.stringify({ success: true, announcements: [], page: 1, limit: 50, total: 0 }),
    ),
    'POST /auth/twitter/start': ok({ authorizeUrl }),
    ...routes,
  });
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export const page = (path: string) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/" element={<MainPage />} />
        <Route path="/r/:handle" element={<MainPage />} />
      </Routes>
      <LocationProbe />
    </>,
    path,
  );

export const earnMoreMana = () => screen.getByRole('button', { name: /Earn more Mana/i });

export function stubAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
  return assign;
}
