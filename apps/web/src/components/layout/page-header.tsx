import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DemoBadge } from './demo-badge';

type PageHeaderProps = {
  onOpenUpdates: () => void;
  /** Called when the pointer or focus reaches Updates, so the modal's chunk is fetched before the click. */
  onUpdatesIntent?: () => void;
  /** The link-account pill, or the linked handle with its avatar (composed by the page from the account feature). */
  account?: ReactNode;
};

/** The top bar. Its full navigation (SPEC §2) comes with the main-page issue; Updates is here already. */
export function PageHeader({ onOpenUpdates, onUpdatesIntent, account }: PageHeaderProps) {
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-ink/80 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-mana focus:px-4 focus:py-2 focus:font-semibold focus:text-white"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-[1600px] items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link
          to="/"
          aria-label="Manaboard"
          className="flex items-center gap-2 rounded-lg focus-visible:outline-2 focus-visible:outline-mana-soft"
        >
          <img src="/favicon.svg" alt="" width={32} height={32} className="h-8 w-8" />
          <span className="hidden text-lg font-extrabold tracking-tight text-white min-[420px]:inline">
            Manaboard
          </span>
        </Link>
        <nav aria-label="Main" className="flex items-center gap-2">
          <DemoBadge />
          <button
            type="button"
            onClick={onOpenUpdates}
            onPointerEnter={onUpdatesIntent}
            onFocus={onUpdatesIntent}
            className="rounded-full border border-mana/50 bg-mana/15 px-4 py-1.5 text-sm font-semibold text-violet-100 hover:bg-mana/30 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-mana-soft"
          >
            Updates
          </button>
          {account}
        </nav>
      </div>
    </header>
  );
}
