import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { BreakdownOpener, BreakdownTarget } from '../../../lib/breakdown-target';

// The dialog is its own chunk: the first visit never loads it; the first click on a Mana figure does.
const loadDialog = () => import('./breakdown-dialog');
const BreakdownDialog = lazy(() => loadDialog().then((m) => ({ default: m.BreakdownDialog })));

/** Warms the dialog's chunk on intent (pointer or focus on a Mana figure); a failure here is harmless. */
export function preloadBreakdownDialog(): void {
  loadDialog().catch(() => undefined);
}

/**
 * The page's one Mana breakdown dialog: returns the opener to hand to whatever shows a figure (the leaderboard,
 * the card) and the dialog element to render (nothing until first opened).
 */
export function useBreakdownDialog(): { opener: BreakdownOpener; dialog: ReactNode } {
  const [target, setTarget] = useState<BreakdownTarget | null>(null);
  const [isOpen, setOpen] = useState(false);
  const open = useCallback((next: BreakdownTarget) => {
    setTarget(next);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const opener = useMemo<BreakdownOpener>(() => ({ open, preload: preloadBreakdownDialog }), [open]);
  const dialog = target ? (
    <Suspense fallback={null}>
      <BreakdownDialog target={target} open={isOpen} onClose={close} />
    </Suspense>
  ) : null;
  return { opener, dialog };
}
