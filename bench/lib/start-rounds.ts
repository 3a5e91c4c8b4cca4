// The starts of `npm run bench user` (issue 33), as multiples of a bare Fastify process's start: bare, fresh,
// bare, restart, bare, fresh, … Each subject is divided by the mean of the two bare starts around it, so drift on
// a shared machine hits both alike; medians of the rounds, with the seconds beside.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { median } from './stats';
import { startAsUser, startBare, type StartPhase } from './user-process';

export type StartFigure = {
  /** Median over rounds of the subject ÷ the mean of the bare starts just before and after it. */
  ratio: number;
  /** Median of the subject's own times, ms. */
  ms: number;
};

export type StartFigures = {
  rounds: number;
  /** Median of every bare start's first 200, ms. */
  bareMs: number;
  /** First 200 of `/` on an empty data directory (the demo world is then replayed). */
  fresh: StartFigure;
  /** The demo caught up after that fresh start (the worker's jobs scheduled). */
  caughtUp: StartFigure;
  /** First 200 on the data and build the fresh start of the same round left. */
  restart: StartFigure;
  /** The phases of one more restart at `LOG_LEVEL=debug` (not counted above), if `phases` was asked for. */
  phases: StartPhase[];
  /** The data directory of the last round, kept for the caller (a caught-up demo). */
  dataDir: string;
};

function figure(subject: number[], ratios: number[]): StartFigure {
  return { ratio: median(ratios), ms: median(subject) };
}

/**
 * `rounds` rounds of bare, fresh, bare, restart (and one bare at the very end). The fresh start runs until the
 * demo has caught up, so the restart finds what a user's second start finds; each restart is also waited out
 * until its worker is scheduled before it is stopped. With `phases`, one more restart at LOG_LEVEL=debug gives
 * the start's phase lines (apps/server/src/lib/start-phases.ts); it is not one of the timed starts.
 */
export async function interleavedStarts(options: {
  rounds: number;
  appPort: number;
  barePort: number;
  phases?: boolean;
}): Promise<StartFigures> {
  const bares: number[] = [];
  const bare = async () => {
    const started = await startBare(options.barePort);
    await started.stop();
    bares.push(started.firstOkMs);
    return started.firstOkMs;
  };
  const around = (before: number, after: number, subject: number) => subject / ((before + after) / 2);
  const fresh: number[] = [];
  const caughtUp: number[] = [];
  const restart: number[] = [];
  const ratios = { fresh: [] as number[], caughtUp: [] as number[], restart: [] as number[] };
  let phases: StartPhase[] = [];
  let dataDir = '';
  let before = await bare();
  for (let round = 0; round < options.rounds; round++) {
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-user-'));
    const first = await startAsUser(options.appPort, dataDir);
    await first.stop();
    let after = await bare();
    fresh.push(first.firstOkMs);
    caughtUp.push(first.caughtUpMs);
    ratios.fresh.push(around(before, after, first.firstOkMs));
    ratios.caughtUp.push(around(before, after, first.caughtUpMs));
    before = after;
    const again = await startAsUser(options.appPort, dataDir);
    await again.stop();
    after = await bare();
    restart.push(again.firstOkMs);
    ratios.restart.push(around(before, after, again.firstOkMs));
    before = after;
  }
  if (options.phases) {
    const logged = await startAsUser(options.appPort, dataDir, { LOG_LEVEL: 'debug' });
    await logged.stop();
    phases = logged.phases;
  }
  return {
    rounds: options.rounds,
    bareMs: median(bares),
    fresh: figure(fresh, ratios.fresh),
    caughtUp: figure(caughtUp, ratios.caughtUp),
    restart: figure(restart, ratios.restart),
    phases,
    dataDir,
  };
}
