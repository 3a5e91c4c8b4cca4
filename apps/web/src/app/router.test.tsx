import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import { AppRoutes } from './router';

function serveConfig() {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ success: true, data: { socialNetwork: 'x', simulated: false } })),
    ),
  );
}

describe('AppRoutes (SPEC §2)', () => {
  it.each(['/', '/r/@someone', '/r/someone'])('renders the main page frame at %s', async (path) => {
    serveConfig();
    renderWithProviders(<AppRoutes />, path);
    expect(screen.getByRole('banner').textContent).toContain('Manaboard');
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('contentinfo').textContent).toContain('© 2025 Manaboard');
    expect(screen.getByRole('button', { name: 'Updates' })).toBeTruthy();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
  });

  it.each(['/auth/callback', '/linked'])('renders the auth-return overlay at %s', (path) => {
    renderWithProviders(<AppRoutes />, path);
    const overlay = screen.getByRole('status');
    expect(overlay.className).toContain('bg-black');
    expect(overlay.querySelector('img')?.className).toContain('animate-fade-in-1s');
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('says so for any other path', () => {
    renderWithProviders(<AppRoutes />, '/nowhere');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});
