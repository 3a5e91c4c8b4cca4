import type { ManaAuthor } from '@manaboard/contract';
import { useState } from 'react';
import { useAccount } from '../../../lib/account';
import type { BreakdownOpener } from '../../../lib/breakdown-target';
import { useAuthorStats } from '../../../lib/mana-authors';
import { useAuthors } from '../api/get-authors';
import type { BoardFilter } from '../../../lib/leaderboard-keys';
import { SM_UP, useMediaQuery } from '../../../lib/use-media-query';
import { leaderboardErrorText } from '../../../lib/board-error';
import { BoardEmpty, BoardError, BoardSpinner } from './board-status';
import { RankRow, type NarrowColumn } from './rank-row';

const columnName: Record<NarrowColumn, string> = { mana: 'Mana', posts: 'Tracked Post' };
const other = (column: NarrowColumn): NarrowColumn => (column === 'mana' ? 'posts' : 'mana');

type RanksTableProps = { filter: BoardFilter; breakdown: BreakdownOpener };

/**
 * The Ranks tab (SPEC §2): #, User, Tracked Post, Mana; under 640 px one column that toggles between Mana and
 * Tracked Post. Pages of 20 with "Show more" (global ranks kept), and a linked member's own row pinned at the
 * bottom with its global rank whenever it is not among the rows shown.
 */
export function RanksTable({ filter, breakdown }: RanksTableProps) {
  const wide = useMediaQuery(SM_UP);
  const [narrow, setNarrow] = useState<NarrowColumn>('mana');
  const narrowColumn = wide ? null : narrow;
  const authors = useAuthors(filter);
  const account = useAccount();
  const own = useAuthorStats(account.handle, filter.weekly, account.connected);

  if (authors.isPending) return <BoardSpinner />;
  // A failed "Show more" keeps the rows already shown; only a failed first page replaces them.
  if (!authors.data) return <BoardError text={leaderboardErrorText(authors.error, 'authors')} />;
  const rows = authors.data.pages.flatMap((page) => page.authors);
  if (rows.length === 0) return <BoardEmpty kind="authors" search={filter.search} />;

  const ownRow = own.data ?? null;
  const ownShown = ownRow !== null && rows.some((row) => row.authorId === ownRow.authorId);
  const open = (author: ManaAuthor) =>
    breakdown.open({
      authorId: author.authorId,
      authorName: author.authorName,
      figure: author.totalMana,
      weekly: filter.weekly,
    });
  const headerCell = 'px-2 py-2 text-xs font-bold uppercase tracking-wider text-violet-200/70';

  return (
    <div onPointerOver={breakdown.preload} onFocus={breakdown.preload}>
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">
          Mana Leaderboard, {filter.weekly ? 'this week' : 'all time'}
          {filter.search ? `, matching "${filter.search}"` : ''}
        </caption>
        <colgroup>
          <col className="w-10 sm:w-16" />
          <col />
          {narrowColumn !== 'mana' ? <col className="w-24 sm:w-32" /> : null}
          {narrowColumn !== 'posts' ? <col className="w-24 sm:w-36" /> : null}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className={`${headerCell} pl-3 text-right`}>
              #
            </th>
            <th scope="col" className={`${headerCell} text-left`}>
              User
            </th>
            {narrowColumn === null ? (
              <>
                <th scope="col" className={`${headerCell} text-right`}>
                  Tracked Post
                </th>
                <th scope="col" className={`${headerCell} pr-3 text-right`}>
                  Mana
                </th>
              </>
            ) : (
              <th scope="col" className={`${headerCell} pr-3 text-right`}>
                <button
                  type="button"
                  onClick={() => setNarrow(other(narrow))}
                  aria-label={`${columnName[narrow]}: show ${columnName[other(narrow)]} instead`}
                  className="inline-flex items-center gap-1 rounded-full border border-white/20 px-2 py-1 text-right text-[0.65rem] font-bold uppercase leading-tight text-violet-100 hover:border-mana-soft focus-visible:outline-2 focus-visible:outline-gold"
                >
                  {columnName[narrow]}
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    className="h-3.5 w-3.5"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                  >
                    <path d="M4 7h11l-3-3M16 13H5l3 3" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </button>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((author) => (
            <RankRow
              key={author.authorId}
              author={author}
              narrowColumn={narrowColumn}
              own={author.authorId === ownRow?.authorId}
              onOpenBreakdown={open}
            />
          ))}
        </tbody>
        {ownRow && !ownShown ? (
          <tfoot className="sticky bottom-0 border-t-2 border-gold/50 bg-night">
            <RankRow author={ownRow} narrowColumn={narrowColumn} own onOpenBreakdown={open} />
          </tfoot>
        ) : null}
      </table>
      {authors.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <button
            type="button"
            onClick={() => void authors.fetchNextPage()}
            disabled={authors.isFetchingNextPage}
            className="rounded-full border border-mana/60 px-6 py-2 text-sm font-bold text-violet-100 hover:bg-mana/20 disabled:cursor-wait disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
          >
            {authors.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </button>
        </div>
      ) : null}
      {authors.isFetchNextPageError ? (
        <BoardError text={leaderboardErrorText(authors.error, 'authors')} />
      ) : null}
    </div>
  );
}
