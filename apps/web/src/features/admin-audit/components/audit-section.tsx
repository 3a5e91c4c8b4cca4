import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuditEntryView } from '@manaboard/contract/admin';
import { auditQueryOptions, downloadAuditCsv, noFilters, type AuditFilters } from '../api/audit';
import { AuditFiltersForm } from './audit-filters';

const button =
  'rounded-full border border-white/20 px-4 py-1.5 text-sm font-semibold hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** Section 5: who did what and when, filtered, a page at a time (Load more), and the same as CSV. */
export function AuditSection() {
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const log = useInfiniteQuery(auditQueryOptions(filters));
  const csv = useMutation({ mutationFn: () => downloadAuditCsv(filters) });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="audit-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="audit-heading" className="text-2xl font-black">
          Audit log
        </h1>
        <button type="button" className={button} disabled={csv.isPending} onClick={() => csv.mutate()}>
          {csv.isPending ? 'Preparing CSV…' : 'Download CSV'}
        </button>
      </div>
      <p role="alert" className="text-sm text-rose-200 empty:hidden">
        {csv.error ? csv.error.message : ''}
      </p>
      <AuditFiltersForm value={filters} onApply={setFilters} />
      {log.isPending ? (
        <p role="status">Loading the audit log…</p>
      ) : log.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{log.error.message}</p>
          <button type="button" className={button} onClick={() => void log.refetch()}>
            Retry
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className="text-violet-200">No entries match these filters.</p>
      ) : (
        <>
          <ul className="space-y-3 md:hidden" aria-label="Audit entries, newest first">
            {entries.map((entry) => (
              <AuditCard key={entry.id} entry={entry} />
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-xl border border-white/10 md:block">
            <table className="w-full min-w-[640px] text-left text-sm">
              <caption className="sr-only">Audit entries, newest first</caption>
              <thead className="bg-dusk/80 text-xs uppercase tracking-wide text-violet-100">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    When (UTC)
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Who
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Action
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Subject
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Before / after
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <p role="status" className="text-xs text-violet-200">
            Showing {entries.length} {entries.length === 1 ? 'entry' : 'entries'}
            {log.hasNextPage ? '; more are older' : ''}.
          </p>
          {log.hasNextPage ? (
            <button
              type="button"
              className={button}
              disabled={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

/** What changed, shown on demand (before, after and any other details), or `none` when nothing was recorded. */
function Changes({ details, none }: { details: AuditEntryView['details']; none: string | null }) {
  const { before, after, ...rest } = details;
  const hasChange = before !== undefined || after !== undefined;
  if (!hasChange && Object.keys(rest).length === 0) return none;
  return (
    <details>
      <summary className="cursor-pointer text-mana-soft focus-visible:outline-2 focus-visible:outline-gold">
        Show
      </summary>
      <pre className="mt-2 max-w-md overflow-x-auto whitespace-pre-wrap break-all rounded bg-black/40 p-2 text-xs">
        {JSON.stringify(hasChange ? { before, after, ...rest } : rest, null, 2)}
      </pre>
    </details>
  );
}

/** An entry as a card on phones, where a five-column table cannot fit. */
function AuditCard({ entry }: { entry: AuditEntryView }) {
  return (
    <li className="space-y-1 rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
      <p className="font-mono text-xs text-gold">{entry.action}</p>
      <p className="break-words">{entry.actor}</p>
      <p className="text-xs text-violet-200">
        <time dateTime={entry.at}>{when.format(new Date(entry.at))} UTC</time>
      </p>
      {entry.subject ? <p className="break-all font-mono text-xs text-violet-200">{entry.subject}</p> : null}
      <Changes details={entry.details} none={null} />
    </li>
  );
}

function AuditRow({ entry }: { entry: AuditEntryView }) {
  return (
    <tr className="border-t border-white/10 align-top">
      <td className="whitespace-nowrap px-3 py-2">
        <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
      </td>
      <td className="break-words px-3 py-2">{entry.actor}</td>
      <td className="px-3 py-2 font-mono text-xs">{entry.action}</td>
      <td className="break-all px-3 py-2 font-mono text-xs">{entry.subject ?? '—'}</td>
      <td className="px-3 py-2">
        <Changes details={entry.details} none="—" />
      </td>
    </tr>
  );
}
