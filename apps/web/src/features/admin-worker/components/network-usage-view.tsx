import type { NetworkUsage } from '@manaboard/contract/admin';
import { at, count, span, usd } from './format';
import { catchUpText, StoredTenthsChart } from './stream-backlog';

type Calls = Extract<NetworkUsage, { kind: 'calls' }>;
type Stream = Extract<NetworkUsage, { kind: 'stream' }>;

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div className="rounded-lg bg-black/30 p-3">
      <dt className="text-xs uppercase tracking-wide text-violet-200">{term}</dt>
      <dd className="mt-1 text-lg font-bold">{value}</dd>
    </div>
  );
}

function CallsUsage({ usage }: { usage: Calls }) {
  const share = usage.monthlyReadCap ? Math.min(1, usage.monthReads / usage.monthlyReadCap) : null;
  return (
    <div className="space-y-3">
      <dl className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        <Figure
          term="Reads this month"
          value={
            usage.monthlyReadCap
              ? `${count(usage.monthReads)} of ${count(usage.monthlyReadCap)}`
              : `${count(usage.monthReads)} (no cap set)`
          }
        />
        <Figure term="Estimated cost today" value={usd(usage.todayCostUsd)} />
        <Figure term="Estimated cost this month" value={usd(usage.monthCostUsd)} />
        <Figure term="Price per read" value={`$${usage.pricePerReadUsd}`} />
      </dl>
      {share !== null ? (
        <div>
          <p className="text-xs text-violet-200" id="cap-share">
            {Math.round(share * 100)}% of the monthly read cap used
          </p>
          <div className="mt-1 h-2 overflow-hidden rounded-full bg-white/10" aria-hidden="true">
            <div
              className={`h-full ${share > 0.9 ? 'bg-rose-400' : share > 0.7 ? 'bg-amber-300' : 'bg-emerald-400'}`}
              style={{ width: `${share * 100}%` }}
            />
          </div>
        </div>
      ) : null}
      {usage.endpoints.length === 0 ? (
        <p className="text-violet-200">No calls recorded this month.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-white/10">
          <table className="w-full min-w-[320px] text-left text-sm">
            <caption className="sr-only">Calls per endpoint today and this month</caption>
            <thead className="bg-dusk/80 text-xs uppercase tracking-wide text-violet-100">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Endpoint
                </th>
                <th scope="col" className="px-3 py-2">
                  Today: calls / reads / failed
                </th>
                <th scope="col" className="px-3 py-2">
                  Month: calls / reads / failed
                </th>
              </tr>
            </thead>
            <tbody>
              {usage.endpoints.map((e) => (
                <tr key={e.endpoint} className="border-t border-white/10">
                  <th scope="row" className="break-all px-3 py-2 font-mono text-xs font-normal">
                    {e.endpoint}
                  </th>
                  <td className="px-3 py-2">
                    {count(e.today.calls)} / {count(e.today.reads)} / {count(e.today.failures)}
                  </td>
                  <td className="px-3 py-2">
                    {count(e.month.calls)} / {count(e.month.reads)} / {count(e.month.failures)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

const rate = (perSecond: number | null) => (perSecond === null ? 'no report' : `${count(perSecond)}/s`);

function StreamUsage({ usage }: { usage: Stream }) {
  const behind =
    usage.lagSeconds !== null && usage.lagBoundSeconds !== null && usage.lagSeconds > usage.lagBoundSeconds;
  const window = usage.replayWindowSeconds;
  const left = usage.replayWindowLeftSeconds;
  return (
    <div className="space-y-2">
      <dl className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        <Figure
          term="Stream lag"
          value={
            usage.lagSeconds === null ? 'unknown' : `${span(usage.lagSeconds)}${behind ? ' (behind)' : ''}`
          }
        />
        <Figure
          term="Events read / stored"
          value={`${rate(usage.seenPerSecond)} / ${rate(usage.storedPerSecond)}`}
        />
        <Figure term="Time left to catch up" value={catchUpText(usage.catchUp)} />
        <Figure
          term="Replay window left"
          value={left === null || window === null ? 'unknown' : `${span(left)} of ${span(window)}`}
        />
        <Figure term="Last event" value={at(usage.lastEventAt)} />
        <Figure term="Progress reported" value={at(usage.progressAt)} />
        <Figure
          term="Reconnects"
          value={usage.reconnects === null ? 'not recorded here' : count(usage.reconnects)}
        />
      </dl>
      <StoredTenthsChart tenths={usage.storedPerTenth} />
      {behind ? (
        <p role="alert" className="text-sm text-rose-200">
          The stream is behind: more than {span(usage.lagBoundSeconds ?? 0)} of lag.{' '}
          {left === 0
            ? 'The replay window is used up: events older than it are lost (the gap is reported in the log).'
            : 'Past the replay window left, events are lost for good.'}
        </p>
      ) : null}
      {usage.lastError ? <p className="text-sm text-rose-200">Last stream error: {usage.lastError}</p> : null}
    </div>
  );
}

/**
 * The network's usage: calls against the cap and their estimated cost (X), or the stream's lag, rates, time left
 * to catch up, stored events per tenth of a minute and replay window left (Bluesky).
 */
export function NetworkUsageView({ usage }: { usage: NetworkUsage }) {
  return (
    <section aria-labelledby="usage-heading" className="space-y-3">
      <h2 id="usage-heading" className="text-lg font-bold">
        Network: {usage.network}
      </h2>
      {usage.kind === 'calls' ? <CallsUsage usage={usage} /> : <StreamUsage usage={usage} />}
    </section>
  );
}
