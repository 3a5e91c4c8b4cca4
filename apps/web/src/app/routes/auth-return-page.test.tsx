import { act, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers';
import { AuthReturnPage } from './auth-return-page';

const routes = (path: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/" element={<p>home page</p>} />
      <Route path="/auth/callback" element={<AuthReturnPage />} />
      <Route path="/linked" element={<AuthReturnPage />} />
    </Routes>,
    path,
  );

describe('AuthReturnPage', () => {
  it('logs an OAuth error and goes home at once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    routes('/auth/callback?error=access_denied');
    expect(screen.getByText('home page')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('access_denied'));
  });

  it('shows the black overlay, then goes home after 1.5 s', () => {
    vi.useFakeTimers();
    routes('/linked');
    expect(screen.getByRole('status').className).toContain('bg-black');
    act(() => vi.advanceTimersByTime(1499));
    expect(screen.queryByText('home page')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('home page')).toBeTruthy();
  });
});
