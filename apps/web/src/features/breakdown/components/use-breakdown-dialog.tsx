import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { BreakdownTarget } from '../breakdown-target';

// The dialog is its own chunk: the first visit never loads it; the first click on a Mana figure does.
const loadDialog = () => import('./breakdown-dialog');
const BreakdownDialog = lazy(() => loadDialog().then((m) => ({ default: m.BreakdownDialog })));

/** Warms the dialog's chunk on intent (pointer or focus on a Mana figure); a failure here is harmless. */
export function preloadBreakdownDialog(): void {
  loadDialog().catch(() => undefined);
}

/**
 * Opens the Mana breakdown of any author from wherever a figure is shown: returns `open(target)` and the
 * dialog element to render (nothing until first opened).
 */
export function useBreakdownDialog(): { open: (target: BreakdownTarget) => void; dialog: ReactNode } {
  const [target, setTarget] = useState<BreakdownTarget | null>(null);
  const [isOpen, setOpen] = useState(false);
  const open = useCallback((next: BreakdownTarget) => {
    setTarget(next);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const dialog = target ? (
    <Suspense fallback={null}>
      <BreakdownDialog target={target} open={isOpen} onClose={close} />
    </Suspense>
  ) : null;
  return { open, dialog };
}
