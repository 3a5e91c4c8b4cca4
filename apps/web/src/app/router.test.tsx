import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { brandingRoutes } from '../test/demo-branding';
import { getBrowserId } from '../lib/browser-id';
import { fakeReferralService } from '../test/fake-referral-service';
import { renderWithProviders } from '../test/render-with-providers';
import { AppRoutes } from './router';

afterEach(() => localStorage.clear());

describe('AppRoutes (SPEC §2)', () => {
  it.each(['/', '/r/@someone', '/r/someone'])('renders the main page frame at %s', async (path) => {
    fakeReferralService(brandingRoutes());
    renderWithProviders(<AppRoutes />, path);
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    await vi.waitFor(() =>
      expect(screen.getByRole('contentinfo').textContent).toContain('© 2025 Manaboard DAO'),
    );
    expect(screen.getByRole('banner').textContent).toContain('Manaboard');
    expect(screen.getByRole('button', { name: 'Updates' })).toBeTruthy();
  });

  it.each(['/auth/callback', '/linked'])('renders the auth-return overlay at %s', async (path) => {
    // A browser that started linking (it has an id) and whose account check has not answered yet.
    getBrowserId();
    fakeReferralService({ 'GET /me/account': () => new Promise<Response>(() => undefined) });
    renderWithProviders(<AppRoutes />, path);
    const overlay = await screen.findByRole('status');
    expect(overlay.className).toContain('bg-black');
    expect(overlay.querySelector('img')?.className).toContain('animate-fade-in-1s');
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('says so for any other path', async () => {
    renderWithProviders(<AppRoutes />, '/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});
