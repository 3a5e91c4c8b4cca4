import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLocation } from 'react-router';
import type { Branding } from '@manaboard/contract';
import { useDialogBehaviour } from '../../../components/ui/use-dialog-behaviour';
import { MODAL_BACKDROP_DELAY_MS } from '../../../config/constants';
import { ExternalButtons, NavItems, type NavActions } from './nav-items';
import { CloseIcon } from '../../../components/ui/close-icon';

/** From this width the links sit in the bar and the menu has no reason to stay open (SPEC §9). */
const INLINE_NAV_QUERY = '(min-width: 1330px)';

type SlideInMenuProps = { branding: Branding | undefined; actions: NavActions; onClose: () => void };

const itemClass =
  'block w-full rounded-xl px-4 py-3 text-left text-lg font-semibold text-violet-50 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
const buttonClass =
  'inline-flex flex-1 justify-center rounded-full border border-gold/60 px-4 py-2.5 font-bold text-gold hover:bg-gold/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';

/**
 * The full-screen slide-in menu of narrow screens (below 1330 px): focus trapped, Esc and a close button, and
 * it closes on navigation (any item, a route change, or the window growing past 1330 px). It unmounts at once
 * on close, so focus is back on the menu button before a modal it opened takes focus.
 */
export function SlideInMenu({ branding, actions, onClose }: SlideInMenuProps) {
  const panel = useRef<HTMLDivElement>(null);
  const [entered, setEntered] = useState(false);
  useDialogBehaviour(panel, onClose);
  useEffect(() => {
    const timer = setTimeout(() => setEntered(true), MODAL_BACKDROP_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  useCloseOnNavigation(onClose);

  return createPortal(
    <div
      ref={panel}
      role="dialog"
      aria-modal="true"
      aria-label="Menu"
      id="site-menu"
      tabIndex={-1}
      data-state={entered ? 'open' : 'opening'}
      className={`fixed inset-0 z-50 flex flex-col overflow-y-auto bg-ink/97 px-5 pb-8 pt-4 outline-none backdrop-blur transition-transform duration-300 motion-reduce:transition-none sm:px-8 ${entered ? 'translate-x-0' : 'translate-x-full'}`}
    >
      <div className="flex items-center justify-between">
        <p className="text-lg font-extrabold text-white">{branding?.programmeName}</p>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close menu"
          className="rounded-lg p-2 text-violet-100 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-mana-soft"
        >
          <CloseIcon className="h-6 w-6" />
        </button>
      </div>
      <nav aria-label="Menu links" className="mx-auto mt-6 w-full max-w-md">
        <ul className="flex flex-col gap-1">
          <NavItems branding={branding} actions={actions} onNavigate={onClose} itemClass={itemClass} />
        </ul>
        {/* In the bar these two are hidden at 840 px and below; the menu keeps them reachable there. */}
        <div className="mt-6 flex gap-3 min-[841px]:hidden">
          <ExternalButtons branding={branding} className={buttonClass} onNavigate={onClose} />
        </div>
      </nav>
    </div>,
    document.body,
  );
}

function useCloseOnNavigation(onClose: () => void): void {
  const location = useLocation();
  const first = useRef(location.key);
  useEffect(() => {
    if (location.key !== first.current) onClose();
  }, [location.key, onClose]);
  useEffect(() => {
    const wide = window.matchMedia?.(INLINE_NAV_QUERY);
    if (!wide) return undefined;
    const onChange = () => {
      if (wide.matches) onClose();
    };
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [onClose]);
}
