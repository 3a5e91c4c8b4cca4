import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noBreakdown } from '../../../test/no-breakdown';
import { renderWithProviders } from '../../../test/render-with-providers';
import { ManaCard } from './mana-card';

// The linked card's chunk fails to load (a dropped connection, or a deploy that replaced it).
vi.mock('./linked-card', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const linked = { connected: true, handle: 'alice', avatarUrl: null, isLoading: false };

afterEach(() => vi.restoreAllMocks());

describe('ManaCard when the linked card cannot load', () => {
  it('keeps the page and says so inside the card, with a Reload button', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    renderWithProviders(
      <ManaCard account={linked} onLink={() => undefined} linking={false} breakdown={noBreakdown} />,
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your card could not be loaded.');
    expect(alert.closest('section')?.getAttribute('aria-label')).toBe('Mana card');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
