import { useCallback, useSyncExternalStore } from 'react';

/** Whether a media query matches now, following changes (false where matchMedia does not exist). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's sm (640 px) and md (768 px) widths, as the leaderboard's layout switches use them. */
export const SM_UP = '(min-width: 640px)';
export const MD_UP = '(min-width: 768px)';
