import { useEffect } from 'react';

/** The global window openers of SPEC §2 ("Modals open through global window openers"). */
export type GlobalOpenerName =
  'openUpdatesModal' | 'openFAQModal' | 'openHowToEarnManaModal' | 'openMakerModal';

declare global {
  interface Window {
    openUpdatesModal?: () => void;
    openFAQModal?: () => void;
    openHowToEarnManaModal?: () => void;
    openMakerModal?: () => void;
  }
}

/** Registers `window[name]` while the component is mounted. */
export function useGlobalOpener(name: GlobalOpenerName, open: () => void): void {
  useEffect(() => {
    window[name] = open;
    return () => {
      if (window[name] === open) delete window[name];
    };
  }, [name, open]);
}
