import type { RunRequest } from '@manaboard/contract/admin';
import { at } from './format';

const state = (r: RunRequest) =>
  r.error
    ? { text: `failed: ${r.error}`, tone: 'text-rose-200' }
    : r.finishedAt
      ? { text: `done ${at(r.finishedAt)}`, tone: 'text-emerald-200' }
      : r.startedAt
        ? { text: `running since ${at(r.startedAt)}`, tone: 'text-amber-200' }
        : { text: 'waiting for the worker', tone: 'text-violet-200' };

/** The latest "Run now" requests and how each ended (the worker records start, finish and any error). */
export function RunRequestsView({ requests }: { requests: RunRequest[] }) {
  return (
    <section aria-labelledby="requests-heading" className="space-y-2">
      <h2 id="requests-heading" className="text-lg font-bold">
        Run-now requests
      </h2>
      {requests.length === 0 ? (
        <p className="text-violet-200">None yet.</p>
      ) : (
        <ul className="space-y-1 text-sm" aria-label="Recent run-now requests">
          {requests.map((r) => {
            const s = state(r);
            return (
              <li key={r.id} className="break-words">
                <span className="font-mono text-gold">{r.job}</span>, asked by {r.requestedBy}{' '}
                {at(r.requestedAt)}: <span className={s.tone}>{s.text}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
