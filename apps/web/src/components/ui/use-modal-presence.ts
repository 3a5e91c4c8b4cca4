import { useEffect, useState } from 'react';
import { MODAL_BACKDROP_DELAY_MS, MODAL_CLOSE_MS } from '../../config/constants';

export type ModalPhase = 'closed' | 'opening' | 'open' | 'closing';

/**
 * The modal lifecycle of SPEC §4: closed → opening (mounted, visible after 10 ms) → open → closing (300 ms,
 * then unmounted). `open` is what the caller wants; the phase follows it with those delays.
 */
export function useModalPresence(open: boolean): ModalPhase {
  const [phase, setPhase] = useState<ModalPhase>(open ? 'opening' : 'closed');

  // Adjust the phase during render when the wish changes (React's pattern for state derived from props).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open && (phase === 'closed' || phase === 'closing')) setPhase('opening');
    if (!open && (phase === 'opening' || phase === 'open')) setPhase('closing');
  }

  useEffect(() => {
    if (phase === 'opening') {
      const timer = setTimeout(() => setPhase('open'), MODAL_BACKDROP_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (phase === 'closing') {
      const timer = setTimeout(() => setPhase('closed'), MODAL_CLOSE_MS);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [phase]);

  return phase;
}
