import { sql, type Kysely } from 'kysely';
import type { World } from '@manaboard/x-sim';
import type { Database } from '../../db/schema';
import type { Clock } from '../../clock';
import { saveDemoProgress, type DemoState } from '../../modules/mana/demo-state.service';
import { bumpTotalsStamp } from '../../modules/mana/totals.repository';
import type { JobLog } from '../../jobs/job';
import type { Worker } from '../../jobs/worker';

const HOUR_MS = 3_600_000;
/** Simulated time per worker cycle while replaying the history: a live worker would run far more often. */
export const DEMO_STEP_MS = 6 * HOUR_MS;
/** Metrics are re-read (and totals recomputed) once a simulated day while replaying; search every step. */
const REFRESH_EVERY_STEPS = 4;

/**
 * The demo's clock for the worker's X client: while the history is replayed, waiting for a rate-limit reset
 * moves simulated time (no real wait); once the world follows the wall clock, waits are real.
 */
export function demoClock(world: World): Clock & { live: () => void } {
  let live = false;
  return {
    now: () => world.now(),
    sleep: async (ms) => {
      if (!live) return world.advance(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    live: () => {
      live = true;
    },
  };
}

/**
 * Replays the demo world's history through the real worker and X client: the simulated clock moves in steps of
 * DEMO_STEP_MS from where it stood (the start of the history on a fresh database) to now, and the worker runs a
 * search after each step and refresh + totals once a simulated day, so X's 7-day search reach is respected as it would
 * be live. Progress goes to the log and to the database (a restart resumes from there).
 */
export async function replayDemoHistory(options: {
  db: Kysely<Database>;
  world: World;
  worker: Worker;
  state: DemoState;
  log: JobLog;
}): Promise<void> {
  const { db, world, worker, state, log } = options;
  if (state.simulatedAt !== null) world.clock.setTime(state.simulatedAt);
  const from = world.now();
  const total = Math.max(Date.now() - from, 1);
  if (total > DEMO_STEP_MS)
    log.info({ days: Math.round(total / 86_400_000) }, 'demo: replaying the simulated X history');
  const started = Date.now();
  let reported = 0;
  let steps = 0;
  while (world.now() < Date.now() - 1_000) {
    world.clock.setTime(Math.min(world.now() + DEMO_STEP_MS, Date.now()));
    if ((await worker.runJob('search')) === null && worker.isStopped) return;
    if (++steps % REFRESH_EVERY_STEPS === 0 || world.now() >= Date.now() - 1_000) {
      await worker.runJob('refresh');
      await worker.runJob('totals');
    }
    await saveDemoProgress(db, { ...state, simulatedAt: world.now() });
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
export function followWallClock(options: {
  db: Kysely<Database>;
  world: World;
  state: DemoState;
}): () => void {
  const { db, world, state } = options;
  let ticks = 0;
  const timer = setInterval(() => {
    world.clock.setTime(Date.now());
    if (++ticks % 60 === 0) void saveDemoProgress(db, { ...state, simulatedAt: world.now() }).catch(() => {});
  }, 1_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Follows the demo to the origin it is served from now. The simulated X gives avatar links as absolute URLs under
 * the public origin (so the page's CSP allows them as 'self'), and authors and members keep them as given; after a
 * change of PORT or PUBLIC_ORIGIN those links name an origin nothing answers on, and the browser refuses them. So
 * the links under the previous base are moved to the new one (and the leaderboard's cached pages dropped), once.
 */
export async function followDemoOrigin(
  db: Kysely<Database>,
  state: DemoState,
  simulatedXBase: string,
  now: Date,
): Promise<DemoState> {
  if (state.avatarBase === simulatedXBase) return state;
  const moved = { ...state, avatarBase: simulatedXBase };
  const previous = state.avatarBase;
  await db.transaction().execute(async (trx) => {
    if (previous !== undefined) {
      const rebased = sql<string>`${simulatedXBase} || substr(avatar_url, ${previous.length + 1})`;
      const underPrevious = sql<boolean>`starts_with(avatar_url, ${`${previous}/`})`;
      await trx.updateTable('authors').set({ avatar_url: rebased }).where(underPrevious).execute();
      await trx.updateTable('accounts').set({ avatar_url: rebased }).where(underPrevious).execute();
      await bumpTotalsStamp(trx, now);
    }
    await saveDemoProgress(trx, moved, now);
  });
  return moved;
}
