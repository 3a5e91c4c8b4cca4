import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GetReferredForm } from './get-referred-form';

const notReferred = { referred: false, handle: null };

describe('GetReferredForm (SPEC §5 disabled rules)', () => {
  it('disables the input and the button when not connected', () => {
    render(<GetReferredForm connected={false} referredBy={notReferred} phase="idle" onApply={vi.fn()} />);
    expect((screen.getByLabelText('Get referred') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Apply Referral' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('disables only the button while applying', () => {
    render(<GetReferredForm connected referredBy={notReferred} phase="applying" onApply={vi.fn()} />);
    expect((screen.getByLabelText('Get referred') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Applying...' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('marks the input invalid and described by the error while one shows', () => {
    const { rerender } = render(
      <GetReferredForm
        connected
        referredBy={notReferred}
        phase="error"
        onApply={vi.fn()}
        errorId="apply-error"
      />,
    );
    const input = screen.getByLabelText('Get referred');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('apply-error');
    rerender(<GetReferredForm connected referredBy={notReferred} phase="idle" onApply={vi.fn()} />);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('reads "Referred by {handle}", disabled, once referred', () => {
    render(
      <GetReferredForm
        connected
        referredBy={{ referred: true, handle: 'bob' }}
        phase="idle"
        onApply={vi.fn()}
      />,
    );
    expect((screen.getByRole('button', { name: 'Referred by bob' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it("shows an example handle the network can have (the network adapter's)", () => {
    render(
      <GetReferredForm
        connected
        referredBy={notReferred}
        phase="idle"
        onApply={vi.fn()}
        exampleHandle="mana-fan.bsky.social"
      />,
    );
    expect(screen.getByLabelText('Get referred').getAttribute('placeholder')).toBe(
      "Referrer's handle, e.g. @mana-fan.bsky.social",
    );
  });
});
