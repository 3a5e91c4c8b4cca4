import { lazy, Suspense, useState } from 'react';
import type { BreakdownOpener } from '../../../lib/breakdown-target';
import { useDebouncedSearch } from '../hooks/use-debounced-search';
import { BoardSpinner } from './board-status';
import { LeaderboardSearch } from './leaderboard-search';
import { LeaderboardTabs, panelId, tabId, type BoardTab } from './leaderboard-tabs';
import { PeriodToggle } from './period-toggle';
import { RanksTable } from './ranks-table';

// The posts grid (and X's embeds with it) is its own chunk: the first paint needs only the ranks.
const PostsGrid = lazy(() => import('./posts-grid').then((m) => ({ default: m.PostsGrid })));

/**
 * The Mana Leaderboard panel (SPEC §2, §4): Ranks and Posts tabs, a debounced search with a clear button, the
 * This Week / All Time toggle, and every Mana figure opening its breakdown through `breakdown` (the page's).
 */
export function LeaderboardPanel({ breakdown }: { breakdown: BreakdownOpener }) {
  const [tab, setTab] = useState<BoardTab>('ranks');
  const [weekly, setWeekly] = useState(false);
  const search = useDebouncedSearch();
  const filter = { weekly, search: search.search };

  return (
    <section aria-labelledby="leaderboard-title" className="mt-10">
      <div className="rounded-3xl border border-white/10 bg-night/80 p-4 shadow-xl shadow-black/30 sm:p-6">
        <div className="flex flex-col gap-4 lg:flex-row lg:items-center lg:justify-between">
          <h2 id="leaderboard-title" className="text-2xl font-extrabold text-white">
            Mana Leaderboard
          </h2>
          {/* Narrow: tabs and period on one line, the search under them; from 640 px all in one row. */}
          <div className="flex flex-wrap items-center justify-between gap-3 sm:justify-start">
            <LeaderboardTabs selected={tab} onSelect={setTab} />
            <div className="order-last w-full sm:order-none sm:w-auto">
              <LeaderboardSearch value={search.input} onChange={search.setInput} onClear={search.clear} />
            </div>
            <PeriodToggle weekly={weekly} onChange={setWeekly} />
          </div>
        </div>
        {/* Both panels exist (each tab controls one); only the selected one is shown and mounted. */}
        {(['ranks', 'posts'] as const).map((panel) => (
          <div
            key={panel}
            role="tabpanel"
            id={panelId(panel)}
            aria-labelledby={tabId(panel)}
            hidden={panel !== tab}
            tabIndex={0}
            className="mt-5 rounded-2xl outline-none focus-visible:outline-2 focus-visible:outline-mana-soft"
          >
            {panel !== tab ? null : panel === 'ranks' ? (
              <RanksTable filter={filter} breakdown={breakdown} />
            ) : (
              <Suspense fallback={<BoardSpinner label="Loading posts" />}>
                <PostsGrid filter={filter} />
              </Suspense>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
