import { useEffect, type RefObject } from 'react';

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(focusableSelector)).filter(
    (el) =>
      !el.hasAttribute('inert') &&
      el.getAttribute('aria-hidden') !== 'true' &&
      // Items a breakpoint hides (display: none) take no focus, so they cannot be the trap's first or last.
      (typeof el.checkVisibility !== 'function' || el.checkVisibility()),
  );
}

/**
 * While a dialog is mounted: body scroll locked, Esc calls onClose, Tab and Shift+Tab cycle inside it, focus
 * moves in on mount and returns to where it was on unmount.
 */
export function useDialogBehaviour(panel: RefObject<HTMLElement | null>, onClose: () => void): void {
  useEffect(() => {
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const container = panel.current;
    if (container) (focusables(container)[0] ?? container).focus();
    return () => {
      document.body.style.overflow = previousOverflow;
      returnTo?.focus();
    };
  }, [panel]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const container = panel.current;
      if (event.key === 'Escape') {
        event.stopPropagation();
        onClose();
        return;
      }
      if (event.key !== 'Tab' || !container) return;
      const items = focusables(container);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        container.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !container.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !container.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [panel, onClose]);
}
