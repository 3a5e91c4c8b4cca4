import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { Branding } from '@manaboard/contract';
import { ExternalButtons, NavItems, type NavActions } from './nav-items';
import { LogoButton } from './logo-button';

// The menu is needed only on a click below 1330 px: its own chunk, fetched on intent.
const loadMenu = () => import('./slide-in-menu');
const SlideInMenu = lazy(() => loadMenu().then((m) => ({ default: m.SlideInMenu })));
const preloadMenu = () => void loadMenu().catch(() => undefined);

type TopBarProps = {
  branding: Branding | undefined;
  actions: NavActions;
  /** The link-account pill, or the linked handle with its avatar. */
  account: ReactNode;
  /** Anything else for the bar's right side (the demo badge). */
  extra?: ReactNode;
};

const inlineItemClass =
  'whitespace-nowrap rounded-full px-3 py-1.5 text-sm font-semibold text-violet-100 hover:bg-white/10 hover:text-white min-[1520px]:px-4 min-[1520px]:text-[0.95rem] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-mana-soft';
const barButtonClass =
  'hidden whitespace-nowrap rounded-full border border-gold/60 px-3.5 py-1.5 text-sm font-bold text-gold hover:bg-gold/10 min-[841px]:inline-flex focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';

/**
 * The top bar (SPEC §2, breakpoints of §9): logo with its sound, the links inline from 1330 px and in a
 * slide-in menu below, the community-site and Pitchdeck buttons from 841 px, and the account pill.
 */
export function TopBar({ branding, actions, account, extra }: TopBarProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-ink/85 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-violet-700 focus:px-4 focus:py-2 focus:font-semibold focus:text-white"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-[1600px] items-center gap-2 px-3 py-3 min-[420px]:px-4 min-[768px]:gap-3 min-[768px]:px-6 min-[1520px]:gap-5">
        <LogoButton branding={branding} />
        <nav aria-label="Main" className="hidden min-[1330px]:block">
          <ul className="flex items-center gap-0.5 min-[1520px]:gap-1">
            <NavItems branding={branding} actions={actions} itemClass={inlineItemClass} />
          </ul>
        </nav>
        <div className="ml-auto flex min-w-0 items-center gap-2 min-[768px]:gap-3">
          {extra}
          <ExternalButtons branding={branding} className={barButtonClass} />
          {account}
          <button
            type="button"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? 'site-menu' : undefined}
            aria-haspopup="dialog"
            onClick={() => setMenuOpen(true)}
            onPointerEnter={preloadMenu}
            onFocus={preloadMenu}
            className="shrink-0 rounded-lg p-2 text-violet-100 hover:bg-white/10 min-[1330px]:hidden focus-visible:outline-2 focus-visible:outline-mana-soft"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-6 w-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </div>
      {menuOpen ? (
        <Suspense fallback={null}>
          <SlideInMenu branding={branding} actions={actions} onClose={closeMenu} />
        </Suspense>
      ) : null}
    </header>
  );
}
