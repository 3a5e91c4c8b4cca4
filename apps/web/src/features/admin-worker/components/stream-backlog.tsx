import type { NetworkUsage } from '@manaboard/contract/admin';
import { count, span } from './format';

type Stream = Extract<NetworkUsage, { kind: 'stream' }>;

const clock = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium', timeZone: 'UTC' });
const time = (iso: string) => clock.format(new Date(iso));
const pace = (gain: number) => `${gain.toLocaleString('en-US', { maximumFractionDigits: 2 })}×`;

/** The time left to catch up as the operator reads it, with the pace of the stream's cursor against the clock. */
export function catchUpText(catchUp: Stream['catchUp']): string {
  switch (catchUp.state) {
    case 'caught-up':
      return 'Caught up';
    case 'catching-up':
      return `About ${span(catchUp.seconds ?? 0)} (at ${pace(catchUp.gain ?? 0)} the network’s pace)`;
    case 'not-catching-up':
      return catchUp.gain === null
        ? 'Not catching up'
        : `Not catching up (at ${pace(catchUp.gain)} the network’s pace)`;
    default:
      return 'unknown';
  }
}

/**
 * Events stored per second for each tenth of a minute (6 s) of the last two, as bars; the bars are decoration
 * (aria-hidden), a table beside them gives every tenth's time and rate to a screen reader.
 */
export function StoredTenthsChart({ tenths }: { tenths: Stream['storedPerTenth'] }) {
  if (tenths.length === 0)
    return (
      <p className="text-sm text-violet-200">No tenth of a minute reported yet: stored events appear here.</p>
    );
  const peak = Math.max(...tenths.map((t) => t.perSecond));
  const latest = tenths.at(-1);
  const first = tenths[0];
  return (
    <figure className="rounded-lg bg-black/30 p-3">
      <figcaption className="text-xs uppercase tracking-wide text-violet-200">
        Events stored per second, each tenth of a minute (6 s)
      </figcaption>
      <p className="mt-1 text-sm">
        Latest <span className="font-bold">{count(latest?.perSecond ?? 0)}/s</span> · peak{' '}
        <span className="font-bold">{count(peak)}/s</span>
      </p>
      <div className="mt-2 flex h-24 items-end gap-px sm:gap-1" aria-hidden="true">
        {tenths.map((t) => (
          <div
            key={t.at}
            className="flex h-full min-w-0 flex-1 items-end"
            title={`${time(t.at)} UTC: ${count(t.perSecond)}/s`}
          >
            <div
              className={`w-full rounded-t-sm ${t.perSecond === 0 ? 'bg-white/15' : 'bg-emerald-400'}`}
              style={{ height: peak > 0 ? `${Math.max(2, (t.perSecond / peak) * 100)}%` : '2px' }}
            />
          </div>
        ))}
      </div>
      <div className="mt-1 flex justify-between text-xs text-violet-200" aria-hidden="true">
        <span>{first ? time(first.at) : ''}</span>
        <span>{latest ? `${time(latest.at)} UTC` : ''}</span>
      </div>
      {/* In a div: an absolutely placed table is as wide as its cells whatever sr-only sets (page overflow at 375 px). */}
      <div className="sr-only">
        <table>
          <caption>Events stored per second, each tenth of a minute, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Tenth starting (UTC)</th>
              <th scope="col">Stored per second</th>
            </tr>
          </thead>
          <tbody>
            {tenths.map((t) => (
              <tr key={t.at}>
                <th scope="row">{time(t.at)}</th>
                <td>{count(t.perSecond)}/s</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
