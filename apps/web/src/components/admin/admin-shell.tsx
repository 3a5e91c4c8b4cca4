import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { AdminIdentity } from '@manaboard/contract/admin';

/** One section of the console: its path under /admin, its name in the navigation, and its screen. */
export type AdminSectionEntry = { path: string; label: string; Component: ComponentType };

// Link and useLocation rather than NavLink: the main page's first load already has both, and React Router's
// NavLink code would land in that first load too (a module lives in one chunk whole), for the console alone.
const navLink = (isActive: boolean) =>
  `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold ${
    isActive ? 'bg-violet-700 text-white' : 'text-violet-100 hover:bg-white/10'
  }`;

/**
 * The console's frame: a skip link, a header (who is signed in, sign out), the sections' navigation (a row that
 * scrolls on phones, a column from 768 px) and the section's screen in `main`.
 */
export function AdminShell({
  admin,
  sections,
  onSignOut,
  signingOut,
  children,
}: {
  admin: AdminIdentity;
  sections: readonly AdminSectionEntry[];
  onSignOut: () => void;
  signingOut: boolean;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  return (
    <div className="min-h-screen bg-night text-white">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-gold focus:px-3 focus:py-2 focus:text-night"
      >
        Skip to content
      </a>
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-white/10 bg-dusk/80 px-4 py-3">
        <p className="text-lg font-black">
          Manaboard <span className="font-semibold text-gold">console</span>
        </p>
        <div className="flex items-center gap-3 text-sm">
          <span className="text-violet-100">
            <span className="sr-only sm:not-sr-only">Signed in as </span>
            <strong className="text-white">@{admin.handle}</strong>
          </span>
          <button
            type="button"
            onClick={onSignOut}
            disabled={signingOut}
            className="whitespace-nowrap rounded-full border border-white/20 px-4 py-1.5 font-semibold hover:bg-white/10 disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
          >
            {signingOut ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      </header>
      <div className="md:flex">
        <nav
          aria-label="Console sections"
          className="border-b border-white/10 md:min-h-[calc(100vh-57px)] md:w-56 md:border-b-0 md:border-r"
        >
          <ul className="flex gap-1 overflow-x-auto p-2 md:flex-col">
            {sections.map((section) => {
              const to = `/admin/${section.path}`;
              const isActive = pathname === to || pathname.startsWith(`${to}/`);
              return (
                <li key={section.path}>
                  <Link to={to} className={navLink(isActive)} aria-current={isActive ? 'page' : undefined}>
                    {section.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="admin-main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none sm:p-6">
          <Suspense fallback={<p role="status">Loading section…</p>}>{children}</Suspense>
        </main>
      </div>
    </div>
  );
}
