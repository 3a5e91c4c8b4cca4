import { Cron } from 'croner';
import type { JobName } from './job';

/**
 * The jobs' patterns are read in UTC. croner reads a time zone's name (`timezone: 'UTC'`) through
 * `Intl.DateTimeFormat`, and the first one a process makes loads ICU's locale and zone data: ~5 MB of node's
 * binary resident for good (issue 33, measured on an idle demo's pages). An offset of 0 minutes is the same UTC in
 * plain arithmetic (UTC has no daylight saving time).
 */
export const UTC_SCHEDULE = { utcOffset: 0 } as const;

/**
 * When each job runs (cron, UTC; six fields = with seconds). Search every minute; totals 20 s later, so a new
 * post reaches the leaderboard within the minute; refresh and interactions every 15 minutes (X's windows).
 */
export const defaultSchedule: Record<JobName, string> = {
  search: '*/1 * * * *',
  refresh: '*/15 * * * *',
  interactions: '*/15 * * * *',
  settle: '7 * * * *',
  totals: '20 * * * * *',
  // Reads only stored data; hourly is plenty for advice an operator reviews.
  fairness: '41 * * * *',
  // Five minutes after each refresh: the records behind the counts it raised (stream networks only).
  trace: '5-59/15 * * * *',
  // Weeks close days after they end; publication retries back off for minutes to hours.
  ledger: '*/10 * * * *',
};

/** One job as the leader schedules it: its pattern as the operator reads it, and when it next runs. */
export type ScheduledJob = {
  job: JobName;
  /** A cron pattern (UTC), or `every N s` when WORKER_INTERVAL_SECONDS replaces the schedule. */
  schedule: string;
  /** The next run after `now`, given when the job last started (null: never ran). */
  nextRunAt: (now: Date, lastRunAt: Date | null) => Date;
};

/**
 * The schedule the leading worker follows, for anyone to read (the console in an API process included): the
 * network's jobs (`jobs`, in the schedule's order), each on the default pattern, or every `intervalSeconds`.
 * The worker and the console both derive from this, so what the console promises is what the worker does.
 */
export function workerSchedule(options: {
  jobs: readonly JobName[];
  intervalSeconds?: number | undefined;
}): ScheduledJob[] {
  const names = (Object.keys(defaultSchedule) as JobName[]).filter((job) => options.jobs.includes(job));
  const interval = options.intervalSeconds;
  return names.map((job) => {
    if (interval) {
      return {
        job,
        schedule: `every ${interval} s`,
        // The leader's ticker fires each second once `interval` seconds have passed since the job last started.
        nextRunAt: (now, lastRunAt) => {
          const nextSecond = new Date(Math.ceil((now.getTime() + 1) / 1000) * 1000);
          const due = lastRunAt ? new Date(lastRunAt.getTime() + interval * 1000) : nextSecond;
          return due > nextSecond ? due : nextSecond;
        },
      };
    }
    const pattern = defaultSchedule[job];
    // A paused Cron with no function only computes times: nothing is scheduled. UTC as an offset of 0 minutes
    // (UTC_SCHEDULE), not as a time zone's name.
    const cron = new Cron(pattern, { ...UTC_SCHEDULE, paused: true });
    return {
      job,
      schedule: pattern,
      nextRunAt: (now) => cron.nextRun(now) ?? now,
    };
  });
}
