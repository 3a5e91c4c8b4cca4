import type { WorkerStatus } from '@manaboard/contract/admin';
import { workerJobNameSchema, type WorkerJobName } from '@manaboard/contract/admin';
import { at, button, count, duration } from './format';

type Job = WorkerStatus['jobs'][number];

const runnable = (job: string): WorkerJobName | null => {
  const parsed = workerJobNameSchema.safeParse(job);
  return parsed.success ? parsed.data : null;
};

const items = (job: Job) => {
  const entries = Object.entries(job.items);
  return entries.length === 0 ? '—' : entries.map(([k, v]) => `${k} ${count(v)}`).join(', ');
};

function RunButton({
  job,
  onRun,
  busy,
}: {
  job: string;
  onRun: (job: WorkerJobName) => void;
  busy: boolean;
}) {
  const name = runnable(job);
  if (!name) return <span className="text-xs text-violet-200">on its schedule</span>;
  return (
    <button
      type="button"
      className={button}
      disabled={busy}
      onClick={() => onRun(name)}
      aria-label={`Run now ${job}`}
    >
      Run now
    </button>
  );
}

function LastError({ job }: { job: Job }) {
  if (!job.lastError) return <span className="text-emerald-200">none</span>;
  return (
    <span className="text-rose-200">
      <span className="break-words">{job.lastError}</span>{' '}
      <span className="text-xs text-violet-200">({at(job.lastErrorAt)})</span>
    </span>
  );
}

/** The next run as the schedule gives it, or "paused" while the worker is paused. */
const next = (job: Job, paused: boolean) => (paused ? 'paused' : at(job.nextRunAt));

/**
 * Every job of the network's schedule: its schedule, last run, next run, duration, items, calls, rate-limit
 * window and last error; a table from 1024 px (beside the console's menu it needs the width), cards below.
 */
export function JobsView({
  jobs,
  onRun,
  running,
  paused,
}: {
  jobs: WorkerStatus['jobs'];
  onRun: (job: WorkerJobName) => void;
  running: boolean;
  paused: boolean;
}) {
  if (jobs.length === 0) return <p className="text-violet-200">No job is scheduled on this network.</p>;
  return (
    <>
      <ul className="space-y-3 lg:hidden" aria-label="Jobs">
        {jobs.map((job) => (
          <li key={job.job} className="space-y-2 rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
            <div className="flex items-center justify-between gap-2">
              <h3 className="font-mono font-bold text-gold">
                {job.job} <span className="text-xs font-normal text-violet-200">{job.schedule}</span>
              </h3>
              <RunButton job={job.job} onRun={onRun} busy={running} />
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-violet-200">Last run</dt>
              <dd>{at(job.lastRunAt)}</dd>
              <dt className="text-violet-200">Next run</dt>
              <dd>{next(job, paused)}</dd>
              <dt className="text-violet-200">Duration</dt>
              <dd>{duration(job.lastDurationMs)}</dd>
              <dt className="text-violet-200">Items</dt>
              <dd className="break-words">{items(job)}</dd>
              <dt className="text-violet-200">Calls</dt>
              <dd>{count(job.callsSpent)}</dd>
              <dt className="text-violet-200">Rate limit</dt>
              <dd>{job.rateLimitResetAt ? `limited until ${at(job.rateLimitResetAt)}` : 'not limited'}</dd>
              <dt className="text-violet-200">Last error</dt>
              <dd>
                <LastError job={job} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-xl border border-white/10 lg:block">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">
            Jobs: schedule, last and next run, duration, items, calls, rate limit, last error
          </caption>
          <thead className="bg-dusk/80 text-xs uppercase tracking-wide text-violet-100">
            <tr>
              {[
                'Job',
                'Last run',
                'Next run',
                'Duration',
                'Items',
                'Calls',
                'Rate limit',
                'Last error',
                'Action',
              ].map((h) => (
                <th key={h} scope="col" className="px-3 py-2">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.job} className="border-t border-white/10 align-top">
                <th scope="row" className="px-3 py-2 font-mono text-gold">
                  {job.job}
                  <span className="block whitespace-nowrap text-xs font-normal text-violet-200">
                    {job.schedule}
                  </span>
                </th>
                <td className="px-3 py-2">{at(job.lastRunAt)}</td>
                <td className="px-3 py-2">{next(job, paused)}</td>
                <td className="whitespace-nowrap px-3 py-2">{duration(job.lastDurationMs)}</td>
                <td className="px-3 py-2">{items(job)}</td>
                <td className="px-3 py-2">{count(job.callsSpent)}</td>
                <td className="px-3 py-2">
                  {job.rateLimitResetAt ? `until ${at(job.rateLimitResetAt)}` : 'not limited'}
                </td>
                <td className="max-w-xs px-3 py-2">
                  <LastError job={job} />
                </td>
                <td className="px-3 py-2">
                  <RunButton job={job.job} onRun={onRun} busy={running} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
