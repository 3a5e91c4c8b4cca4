import { Cron } from 'croner';
import { recordRun } from '../modules/mana/ingest-state.repository';
import type { JobContext, JobName, JobOutcome } from './job';
import { Leadership } from './leader';
import { obeyRunRequests, workerPaused } from './worker-control';
import { defaultSchedule, UTC_SCHEDULE } from './worker-schedule';
import { jobs, type WorkerOptions } from './worker-registry';

export { defaultSchedule } from './worker-schedule';
export { type LeaderService, type WorkerOptions } from './worker-registry';

/** Real elapsed time for the log (the job clock may be simulated). */
const clockless = () => performance.now();

/**
 * The worker: runs the jobs one at a time (a queue, so two never overlap), records each run in ingest_state,
 * and, once started, schedules them with croner while it holds leadership (one leader among all workers).
 */
export class Worker {
  private queue: Promise<unknown> = Promise.resolve();
  private crons: Cron[] = [];
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private control: NodeJS.Timeout | undefined;
  private readonly leadership: Leadership;

  constructor(
    private readonly context: JobContext,
    private readonly options: WorkerOptions = {},
  ) {
    this.leadership = new Leadership(
      context.db,
      options.databaseKind === 'pglite',
      (options.leaderCheckSeconds ?? 5) * 1_000,
    );
  }

  /** True once stop() was called (until the next start). */
  get isStopped(): boolean {
    return this.stopped;
  }

  get isLeader(): boolean {
    return this.leadership.isLeader;
  }

  /** Whether this worker runs the job on its network. */
  uses(name: JobName): boolean {
    return !this.options.jobs || this.options.jobs.includes(name);
  }

  /** Runs one job now (after any job already running); failures are recorded and logged, not thrown. */
  runJob(name: JobName): Promise<JobOutcome | null> {
    if (this.stopped || !this.uses(name)) return Promise.resolve(null);
    const next = this.queue.then(() => (this.stopped ? null : this.execute(name)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** search → refresh → interactions → settle → totals, as one step (the demo's catch-up and the tests use it). */
  async runCycle(): Promise<void> {
    await this.runJob('search');
    await this.runJob('refresh');
    await this.runJob('interactions');
    await this.runJob('settle');
    await this.runJob('totals');
  }

  /** Becomes the leader when possible (retrying every 15 s) and then runs the schedule. */
  async start(): Promise<void> {
    this.stopped = false;
    if (await this.leadership.tryAcquire((error) => this.leadershipLost(error))) {
      this.context.log.info('worker: leader, jobs scheduled');
      const schedule = this.options.schedule ?? defaultSchedule;
      const interval = this.options.intervalSeconds;
      for (const name of (Object.keys(schedule) as JobName[]).filter((job) => this.uses(job))) {
        // An interval job: croner's every-second pattern, at most once per `interval` seconds.
        const pattern = interval ? '* * * * * *' : schedule[name];
        if (!pattern) continue;
        const timing = interval ? { interval } : {};
        this.crons.push(
          new Cron(pattern, { name: `mana-${name}`, protect: true, ...UTC_SCHEDULE, ...timing }, async () => {
            // Paused by the operator (stored, so any process may pause it): skip this run, look again next time.
            if (await workerPaused(this.context.db, this.context.log)) return;
            await this.runJob(name);
          }),
        );
      }
      this.control = setInterval(() => void this.obeyRequests(), this.options.controlPollMs ?? 2_000);
      this.control.unref();
      await this.startServices();
      return;
    }
    this.context.log.info('worker: another worker leads; standing by');
    this.standBy();
  }

  /** The lock's connection died: the lock is gone and another worker may lead, so this one stops scheduling. */
  private leadershipLost(error: unknown): void {
    for (const cron of this.crons) cron.stop();
    this.crons = [];
    clearInterval(this.control);
    this.context.log.error(
      { err: error },
      'worker: the connection holding the leader lock died; stopped scheduling, standing by',
    );
    void this.stopServices();
    if (!this.stopped) this.standBy();
  }

  private async startServices(): Promise<void> {
    for (const service of this.options.leaderServices ?? []) {
      try {
        await service.start();
        this.context.log.info({ service: service.name }, 'worker: leader service started');
      } catch (error) {
        this.context.log.error({ err: error, service: service.name }, 'worker: leader service did not start');
      }
    }
  }

  private async stopServices(): Promise<void> {
    for (const service of this.options.leaderServices ?? []) {
      await service
        .stop()
        .catch((error: unknown) =>
          this.context.log.error(
            { err: error, service: service.name },
            'worker: leader service did not stop',
          ),
        );
    }
  }

  /** Runs the stored run-now requests (the leader polls them); errors are logged, the next poll retries. */
  async obeyRequests(): Promise<number> {
    if (this.stopped || !this.isLeader) return 0;
    const clock = this.context.clock;
    return obeyRunRequests(this.context.db, () => new Date(clock.now()), this, this.context.log).catch(
      (error: unknown) => {
        this.context.log.error({ err: error }, 'worker: could not read the run-now requests');
        return 0;
      },
    );
  }

  /** Retries leadership later (every 15 s, or every interval when shorter). */
  private standBy(): void {
    clearTimeout(this.retry);
    const retrySeconds = Math.min(15, this.options.intervalSeconds ?? 15);
    this.retry = setTimeout(() => void this.start(), retrySeconds * 1_000);
    this.retry.unref();
  }

  /** Stops scheduling, waits for the running job, gives leadership up. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.control);
    for (const cron of this.crons) cron.stop();
    this.crons = [];
    await this.stopServices();
    await this.queue;
    await this.leadership.relinquish();
  }

  private async execute(name: JobName): Promise<JobOutcome | null> {
    const { db, clock, log } = this.context;
    const startedAt = new Date(clock.now());
    const started = clockless();
    let outcome: JobOutcome | null = null;
    let error: string | null = null;
    try {
      outcome = await jobs[name].run(this.context);
      if (name === 'totals' && (outcome.counts.authors ?? 0) > 0) this.options.onTotalsChanged?.();
      log.debug(
        { job: name, ...outcome.counts, calls: outcome.calls, ms: clockless() - started },
        'job done',
      );
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      log.warn({ job: name, err: failure }, 'job failed; it resumes from its cursor next run');
    }
    this.options.onRun?.({
      job: name,
      seconds: (clockless() - started) / 1000,
      outcome,
      error: error !== null,
    });
    const cron = this.crons.find((c) => c.name === `mana-${name}`);
    await recordRun(db, name, {
      startedAt,
      finishedAt: new Date(clock.now()),
      error,
      calls: outcome?.calls ?? 0,
      nextRunAt: cron?.nextRun() ?? null,
      rateLimitResetAt: this.options.rateLimitResetAt?.(name) ?? null,
      durationMs: clockless() - started,
      items: outcome?.counts ?? {},
    }).catch((failure: unknown) => log.error({ job: name, err: failure }, 'could not record the job run'));
    return outcome;
  }
}
