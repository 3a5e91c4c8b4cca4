import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { downloadRewards, rewardsExportQueryOptions } from '../api/export';
import { recentWeeks } from '../api/iso-weeks';
import { ExportTable } from './export-table';

const button =
  'rounded-full border border-white/20 px-4 py-1.5 text-sm font-semibold hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
const field =
  'w-full rounded-lg border border-white/15 bg-black/45 px-3 py-1.5 text-sm text-white focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft';

/** How many finished weeks the period select offers. */
const WEEKS_OFFERED = 12;

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
const moment = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

/**
 * Rewards export: the leaderboard of a finished ISO week (last week by default) or of all time, with credited
 * referrals, shown and downloadable as CSV or JSON so the community can distribute rewards from it.
 */
export function ExportSection() {
  const id = useId();
  const [weeks] = useState(() => recentWeeks(new Date(), WEEKS_OFFERED));
  const [period, setPeriod] = useState(weeks[0]?.week ?? 'all');
  const exported = useQuery(rewardsExportQueryOptions(period));
  const download = useMutation({
    mutationFn: (format: 'csv' | 'json') => downloadRewards(period, format),
  });
  const label = period === 'all' ? 'all time' : `week ${period}`;
  return (
    <section aria-labelledby="export-heading" className="space-y-4">
      <h1 id="export-heading" className="text-2xl font-black">
        Rewards export
      </h1>
      <p className="text-sm text-violet-100">
        The leaderboard of a period as it stands, with the referrals credited in it, for distributing rewards.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full max-w-xs space-y-1">
          <label
            htmlFor={`${id}-period`}
            className="block text-xs font-bold uppercase tracking-wide text-violet-100"
          >
            Period
          </label>
          <select
            id={`${id}-period`}
            value={period}
            onChange={(event) => {
              download.reset();
              setPeriod(event.target.value);
            }}
            className={field}
          >
            {weeks.map((w, i) => (
              <option key={w.week} value={w.week}>
                {w.week} (from {day.format(new Date(w.monday))}){i === 0 ? ', last week' : ''}
              </option>
            ))}
            <option value="all">All time</option>
          </select>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={button}
            disabled={download.isPending}
            onClick={() => download.mutate('csv')}
          >
            Download CSV
          </button>
          <button
            type="button"
            className={button}
            disabled={download.isPending}
            onClick={() => download.mutate('json')}
          >
            Download JSON
          </button>
        </div>
      </div>
      <p role="status" className="text-sm text-emerald-200 empty:hidden">
        {download.isPending
          ? 'Preparing the download…'
          : download.isSuccess
            ? `Downloaded the export of ${label}.`
            : ''}
      </p>
      <p role="alert" className="text-sm text-rose-200 empty:hidden">
        {download.error ? `The download failed: ${download.error.message}` : ''}
      </p>
      {exported.isPending ? (
        <p role="status">Loading the export of {label}…</p>
      ) : exported.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{exported.error.message}</p>
          <button type="button" className={button} onClick={() => void exported.refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <p className="text-xs text-violet-200">
            {exported.data.data.from && exported.data.data.until
              ? `${day.format(new Date(exported.data.data.from))} to ${day.format(new Date(new Date(exported.data.data.until).getTime() - 1))} (UTC). `
              : 'All time. '}
            Generated {moment.format(new Date(exported.data.data.generatedAt))} UTC;{' '}
            {exported.data.data.rows.length} {exported.data.data.rows.length === 1 ? 'member' : 'members'}.
          </p>
          {exported.data.data.rows.length === 0 ? (
            <p className="text-violet-200">No member earned Mana in {label}.</p>
          ) : (
            <ExportTable rows={exported.data.data.rows} caption={`Rewards export, ${label}, by rank`} />
          )}
        </>
      )}
    </section>
  );
}
