import { useId, useState } from 'react';
import type { RecordsResponse } from '@manaboard/contract';
import { leaderboardErrorText } from '../../../lib/board-error';
import { formatCount } from '../../../lib/format-mana';
import { useRecords, type RecordsTarget } from '../api/get-records';
import { RecordItem } from './record-item';

type Counts = NonNullable<RecordsResponse['data']['notTraceable']>;

const kinds = [
  ['likes', 'like', 'likes'],
  ['replies', 'reply', 'replies'],
  ['reposts', 'repost', 'reposts'],
  ['quotes', 'quote', 'quotes'],
] as const;

/** "3 likes and 1 reply not traceable": the points of a line that hold no record the programme can name. */
function NotTraceable({ counts }: { counts: Counts }) {
  const parts = kinds
    .filter(([key]) => counts[key] > 0)
    .map(([key, one, many]) => `${formatCount(counts[key])} ${counts[key] === 1 ? one : many}`);
  if (parts.length === 0) return null;
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return (
    <p className="rounded-md bg-amber-400/10 px-2 py-1.5 text-amber-100" data-testid="not-traceable">
      {text} not traceable: counted from the network’s figures, without a public record the programme can
      name.
    </p>
  );
}

/**
 * The records behind one line, behind a disclosure button (aria-expanded): read only once opened, a page at a
 * time, newest first, with "Load more"; loading, empty and error states; the line's not-traceable points.
 * `only` keeps the records of one kind (an interaction line is one kind of the member's records on a post).
 */
export function LineRecords({
  target,
  label,
  only,
}: {
  target: RecordsTarget;
  /** What the line is, for screen readers ("the post of 18 Nov"). */
  label: string;
  only?: string;
}) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const records = useRecords(target, open);
  const pages = records.data?.pages ?? [];
  const shown = pages.flatMap((p) => p.records).filter((r) => !only || r.kind === only);
  const untraced = pages[0]?.notTraceable;
  return (
    <div className="mt-1 text-xs">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        aria-label={`Records of ${label}`}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 font-semibold text-gold/90 hover:bg-white/5 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold"
      >
        <span aria-hidden="true" className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>
          ▸
        </span>
        Records
      </button>
      {open ? (
        <div id={panel} role="region" aria-label={`Records of ${label}`} className="mt-1 space-y-2 pl-4">
          {records.isPending ? (
            <p role="status" className="text-violet-200/80">
              Loading records…
            </p>
          ) : records.isError ? (
            <p role="alert" className="flex flex-wrap items-center gap-2 font-semibold text-rose-300">
              {leaderboardErrorText(records.error, 'breakdown')}
              <button
                type="button"
                onClick={() => void records.refetch()}
                className="rounded-md border border-rose-300/40 px-2 py-0.5 text-rose-100 hover:bg-rose-500/10 focus-visible:outline-2 focus-visible:outline-gold"
              >
                Retry
              </button>
            </p>
          ) : (
            <>
              {untraced ? <NotTraceable counts={untraced} /> : null}
              {shown.length === 0 ? (
                <p className="text-violet-200/80">No records behind this line.</p>
              ) : (
                <ul aria-label={`Records of ${label}, newest first`}>
                  {shown.map((record) => (
                    <RecordItem
                      key={`${record.kind}|${record.uri ?? record.at}|${record.author.id ?? ''}`}
                      record={record}
                    />
                  ))}
                </ul>
              )}
              {records.hasNextPage ? (
                <button
                  type="button"
                  disabled={records.isFetchingNextPage}
                  onClick={() => void records.fetchNextPage()}
                  className="rounded-md border border-white/15 px-2 py-1 font-semibold text-violet-100 hover:bg-white/5 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-gold"
                >
                  {records.isFetchingNextPage ? 'Loading more…' : 'Load more'}
                </button>
              ) : null}
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
