import { useQuery } from '@tanstack/react-query';
import { ledgerQueryOptions } from '../api/ledger';
import { EditionCard } from './edition-card';
import { button, link, moment } from './styles';
import { WeekCheck } from './week-check';

/**
 * The weekly ledger: each week of the programme, open (and when it closes at the earliest) or closed with its
 * editions, their hashes and where each was published, or the text to post by hand; a closed week is checked
 * against the data now and corrected when its figures changed.
 */
export function LedgerSection() {
  const ledger = useQuery(ledgerQueryOptions());
  const data = ledger.data?.data;
  return (
    <section aria-labelledby="ledger-heading" className="space-y-4">
      <h1 id="ledger-heading" className="text-2xl font-black">
        Ledger
      </h1>
      <p className="text-sm text-violet-100">
        Each week&apos;s board as one document anyone can check, at <code>/api/ledger</code>. A week closes
        once nothing in it can move; its edition never changes, and a correction is a new edition beside it.
        {data
          ? data.automatic
            ? ` The worker posts each edition's hash from @${data.officialAccount}.`
            : ` Post each edition's hash from @${data.officialAccount} by hand: the text is below.`
          : ''}
      </p>
      {ledger.isPending ? (
        <p role="status">Loading the weeks…</p>
      ) : ledger.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{ledger.error.message}</p>
          <button type="button" className={button} onClick={() => void ledger.refetch()}>
            Retry
          </button>
        </div>
      ) : !data || data.weeks.length === 0 ? (
        <p className="text-violet-200">No week yet: the first ledger starts with the first tracked post.</p>
      ) : (
        <ul className="space-y-4" aria-label="Weeks, newest first">
          {data.weeks.map((week) => (
            <li
              key={week.week}
              className="space-y-3 rounded-xl border border-white/10 bg-dusk/50 p-4"
              aria-labelledby={`ledger-${week.week}`}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id={`ledger-${week.week}`} className="text-lg font-bold">
                  {week.week}
                </h2>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${
                    week.state === 'closed'
                      ? 'bg-emerald-900/60 text-emerald-200'
                      : 'bg-violet-900/60 text-violet-100'
                  }`}
                >
                  {week.state}
                </span>
              </div>
              {week.state === 'open' ? (
                <p className="text-sm text-violet-100">
                  Open: its board can still move.
                  {week.closesAt
                    ? ` Closes after ${moment.format(new Date(week.closesAt))} UTC, once its posts are final.`
                    : ''}{' '}
                  <a className={link} href={`/api/ledger/${week.week}`}>
                    As it stands
                  </a>
                </p>
              ) : (
                <>
                  <ul className="space-y-3" aria-label={`Editions of ${week.week}`}>
                    {week.editions.map((edition) => (
                      <EditionCard
                        key={edition.edition}
                        edition={edition}
                        automatic={data.automatic}
                        account={data.officialAccount}
                      />
                    ))}
                  </ul>
                  <WeekCheck week={week.week} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
