import type { World } from '@manaboard/x-sim';
import type { Clock } from '../../lib/clock';
import type { JobLog, JobName, JobOutcome } from '../../lib/job-types';

const HOUR_MS = 3_600_000;
/** Simulated time per worker cycle while replaying the history: a live worker would run far more often. */
export const DEMO_STEP_MS = 6 * HOUR_MS;
/** Metrics are re-read once a simulated day while replaying; search every step. */
const REFRESH_EVERY_STEPS = 4;
/*
 * Totals twice while replaying: once half the history has been replayed (the board fills while the rest is
 * replayed) and at the end. Each run's result is overwritten by the next (the totals of the last run equal a
 * rebuild) and each recomputes nearly every author: a daily run was about a third of the replay's time, one every
 * third day a fifth (issue 33); the demo's posts, totals and ranks after the replay are the same either way.
 */

/**
 * The demo's clock for the worker's X client: while the history is replayed, waiting for a rate-limit reset
 * moves simulated time (no real wait); once the world follows the wall clock, waits are real.
 */
export function demoClock(world: () => World): Clock & { live: () => void } {
  let live = false;
  return {
    now: () => world().now(),
    sleep: async (ms) => {
      if (!live) return world().advance(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    live: () => {
      live = true;
    },
  };
}

/** The worker as the replay drives it (the composition root hands in the real one). */
export type ReplayWorker = {
  runJob: (name: JobName) => Promise<JobOutcome | null>;
  readonly isStopped: boolean;
};

/**
 * Where the demo's clock has got, kept by the engine (a restart resumes from there); handed in by the composition
 * root so the adapter writes nothing of the engine's itself.
 */
export type DemoProgress = { resumeAt: number | null; save: (simulatedAt: number) => Promise<void> };

/**
 * Replays the demo world's history through the real worker and X client: the simulated clock moves in steps of
 * DEMO_STEP_MS from where it stood (the start of the history on a fresh database) to now, and the worker runs a
 * search after each step, refresh once a simulated day and totals halfway and at the end, so X's 7-day search
 * reach is respected as it would be live. Progress goes to the log and to the database (a restart resumes from
 * there).
 */
export async function replayDemoHistory(options: {
  world: World;
  worker: ReplayWorker;
  progress: DemoProgress;
  log: JobLog;
}): Promise<void> {
  const { world, worker, progress, log } = options;
  if (progress.resumeAt !== null) world.clock.setTime(progress.resumeAt);
  const from = world.now();
  const total = Math.max(Date.now() - from, 1);
  if (total > DEMO_STEP_MS)
    log.info({ days: Math.round(total / 86_400_000) }, 'demo: replaying the simulated X history');
  const started = Date.now();
  let reported = 0;
  let steps = 0;
  let halfway = false;
  while (world.now() < Date.now() - 1_000) {
    world.clock.setTime(Math.min(world.now() + DEMO_STEP_MS, Date.now()));
    if ((await worker.runJob('search')) === null && worker.isStopped) return;
    const last = world.now() >= Date.now() - 1_000;
    if (++steps % REFRESH_EVERY_STEPS === 0 || last) await worker.runJob('refresh');
    const half = !halfway && world.now() - from >= total / 2;
    if (half) halfway = true;
    if (half || last) await worker.runJob('totals');
    await progress.save(world.now());
    const done = Math.floor(((world.now() - from) / total) * 10);
    if (done > reported) {
      reported = done;
      log.info(
        { progress: `${done * 10}%`, simulated: new Date(world.now()).toISOString() },
        'demo: history replay',
      );
    }
  }
  // The fairness signals of the replayed history, for the console now rather than at the job's next hour.
  if (steps > 0) await worker.runJob('fairness');
  log.info(
    { seconds: Math.round((Date.now() - started) / 1000) },
    'demo: caught up; the simulated X now follows the wall clock',
  );
}

/** After the replay: the world's clock follows the wall clock (and its position is saved once a minute). */
export function followWallClock(options: { world: World; progress: DemoProgress }): () => void {
  const { world, progress } = options;
  let ticks = 0;
  const timer = setInterval(() => {
    world.clock.setTime(Date.now());
    if (++ticks % 60 === 0) void progress.save(world.now()).catch(() => {});
  }, 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
