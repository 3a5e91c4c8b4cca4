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

/** Tailwind's sm (640 px), md (768 px) and xl (1280 px) widths, as the layout switches use them. */
export const SM_UP = '(min-width: 640px)';
export const MD_UP = '(min-width: 768px)';
export const XL_UP = '(min-width: 1280px)';
