import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './modal';

function Harness({ closeOnBackdrop = false }: { closeOnBackdrop?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open it
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Test dialog" closeOnBackdrop={closeOnBackdrop}>
        <button type="button">First inside</button>
        <a href="#last">Last inside</a>
      </Modal>
    </>
  );
}

function openModal() {
  const opener = screen.getByRole('button', { name: 'Open it' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('Modal', () => {
  it('mounts hidden, becomes visible after 10 ms, and unmounts 300 ms after closing', () => {
    vi.useFakeTimers();
    render(<Harness />);
    openModal();
    const backdrop = screen.getByTestId('modal-backdrop');
    expect(backdrop.dataset.phase).toBe('opening');
    expect(backdrop.dataset.state).toBe('closed');
    expect(backdrop.className).toContain('opacity-0');
    act(() => vi.advanceTimersByTime(9));
    expect(backdrop.dataset.state).toBe('closed');
    act(() => vi.advanceTimersByTime(1));
    expect(backdrop.dataset.phase).toBe('open');
    expect(backdrop.className).toContain('opacity-100');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getByTestId('modal-backdrop').dataset.phase).toBe('closing');
    expect(screen.getByTestId('modal-backdrop').className).toContain('opacity-0');
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is a labelled modal dialog that locks body scroll while mounted', () => {
    vi.useFakeTimers();
    render(<Harness />);
    openModal();
    const dialog = screen.getByRole('dialog', { name: 'Test dialog' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.body.style.overflow).toBe('hidden');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    act(() => vi.advanceTimersByTime(300));
    expect(document.body.style.overflow).toBe('');
  });

  it('moves focus in, traps Tab inside, and returns focus to the opener', () => {
    vi.useFakeTimers();
    render(<Harness />);
    const opener = openModal();
    const close = screen.getByRole('button', { name: 'Close' });
    const last = screen.getByRole('link', { name: 'Last inside' });
    expect(document.activeElement).toBe(close);
    last.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => vi.advanceTimersByTime(300));
    expect(document.activeElement).toBe(opener);
  });

  it('closes on a backdrop click only when asked to', () => {
    vi.useFakeTimers();
    const { unmount } = render(<Harness />);
    openModal();
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    unmount();

    render(<Harness closeOnBackdrop />);
    openModal();
    fireEvent.mouseDown(screen.getByRole('dialog'));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reopened while closing, it stays mounted and fades back in', () => {
    vi.useFakeTimers();
    render(<Harness />);
    openModal();
    act(() => vi.advanceTimersByTime(10));
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => vi.advanceTimersByTime(150));
    fireEvent.click(screen.getByRole('button', { name: 'Open it', hidden: true }));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.getByTestId('modal-backdrop').dataset.phase).toBe('open');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('cycles Tab forward from the last element and Shift+Tab back from the first', () => {
    render(<Harness />);
    openModal();
    const close = screen.getByRole('button', { name: 'Close' });
    const first = screen.getByRole('button', { name: 'First inside' });
    const last = screen.getByRole('link', { name: 'Last inside' });
    close.focus();
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    // In the middle, Tab is left to the browser.
    first.focus();
    const middle = fireEvent.keyDown(document, { key: 'Tab' });
    expect(middle).toBe(true);
  });

  it('honours prefers-reduced-motion: no transitions on the backdrop or the panel', () => {
    render(<Harness />);
    openModal();
    expect(screen.getByTestId('modal-backdrop').className).toContain('motion-reduce:transition-none');
    expect(screen.getByRole('dialog').className).toContain('motion-reduce:transition-none');
  });
});
