import { act, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers';
import { MainPage, normaliseReferralHandle } from './main-page';

function serveEmpty() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.startsWith('/api/public/config')
        ? new Response(JSON.stringify({ success: true, data: { socialNetwork: 'x', simulated: true } }))
        : new Response(JSON.stringify({ success: true, announcements: [], page: 1, limit: 50, total: 0 })),
    ),
  );
}

const page = (path: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/" element={<MainPage />} />
      <Route path="/r/:handle" element={<MainPage />} />
    </Routes>,
    path,
  );

describe('MainPage', () => {
  it("opens What's New from the Updates button and from window.openUpdatesModal", async () => {
    serveEmpty();
    const { unmount } = page('/');
    expect(await screen.findByText('Demo: simulated X')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Updates' }));
    expect(await screen.findByRole('dialog', { name: "What's New" })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    await act(() => new Promise((r) => setTimeout(r, 320)));
    expect(screen.queryByRole('dialog')).toBeNull();

    expect(typeof window.openUpdatesModal).toBe('function');
    act(() => window.openUpdatesModal?.());
    expect(await screen.findByRole('dialog', { name: "What's New" })).toBeTruthy();
    unmount();
    expect(window.openUpdatesModal).toBeUndefined();
  });

  it('shows who invited the visitor on /r/@handle', async () => {
    serveEmpty();
    page('/r/@someone');
    expect(await screen.findByText('Invited by @someone')).toBeTruthy();
  });

  it('normalises referral handles', () => {
    expect(normaliseReferralHandle('@alice')).toBe('alice');
    expect(normaliseReferralHandle(' bob ')).toBe('bob');
    expect(normaliseReferralHandle('@')).toBeNull();
    expect(normaliseReferralHandle(undefined)).toBeNull();
  });
});
