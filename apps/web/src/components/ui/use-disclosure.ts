import { useCallback, useState } from 'react';

export type Disclosure = {
  /** What the user wants now: drives the modal's open → closing → unmounted lifecycle. */
  isOpen: boolean;
  /** True once opened: a lazily loaded modal is fetched and mounted only from then on. */
  hasOpened: boolean;
  open: () => void;
  close: () => void;
};

/** Open/closed state of one modal, with stable callbacks (safe to hand to a global window opener). */
export function useDisclosure(): Disclosure {
  const [isOpen, setIsOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const open = useCallback(() => {
    setHasOpened(true);
    setIsOpen(true);
  }, []);
  const close = useCallback(() => setIsOpen(false), []);
  return { isOpen, hasOpened, open, close };
}
