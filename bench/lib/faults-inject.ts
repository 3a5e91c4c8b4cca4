// The faults themselves, injected while the app catches up with the backlog (bench/faults.ts says what each does).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { AppUnderFault } from './faults-app';
import type { OwnCluster } from './faults-cluster';
import type { FaultRelay } from './faults-relay';
import type { FaultWatch } from './faults-watch';
import { fmt } from './stats';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const FAULTS = ['drop', 'replay', 'disorder', 'kill', 'pg-restart', 'disk-full'] as const;
export type Fault = (typeof FAULTS)[number];

export type FaultTarget = {
  relay: FaultRelay;
  app: AppUnderFault;
  watch: FaultWatch;
  /** The bench's PostgreSQL (pg-restart), else null. */
  cluster: OwnCluster | null;
  /** The app's data directory (a tmpfs for disk-full). */
  dataDir: string;
  /** True once the backlog is (nearly) caught up: no more faults. */
  atEnd: () => boolean;
  /** What the run says beside its figures. */
  notes: string[];
};

/** Injects `fault` from the stream's first progress until it is done (or the backlog caught up first). */
export async function injectFault(fault: Fault, t: FaultTarget): Promise<void> {
  const { relay, app, watch, notes, atEnd } = t;
  switch (fault) {
    case 'drop': {
      const every = Number(process.env.BENCH_FAULTS_DROP_SECONDS ?? 20) * 1000;
      while (!atEnd()) {
        const until = Date.now() + every;
        while (Date.now() < until && !watch.finished) await sleep(100);
        if (atEnd() || watch.finished) break;
        watch.note('drop');
        relay.drop();
      }
      break;
    }
    case 'replay': {
      const every = Number(process.env.BENCH_FAULTS_REPLAY_SECONDS ?? 20) * 1000;
      for (let n = 0; n < 3 && !atEnd(); n++) {
        await sleep(n === 0 ? Math.min(5_000, every) : every);
        if (atEnd()) break;
        watch.note('relay restart');
        await relay.restart(20_000);
      }
      break;
    }
    case 'kill': {
      for (let n = 0; n < 5; n++) {
        // While it stores: some seconds after the stream moved again.
        await sleep(1_500 + Math.random() * 2_500);
        if (atEnd()) {
          notes.push(`kill ${n + 1}: the backlog was caught up first`);
          break;
        }
        watch.note('SIGKILL');
        await app.killAndStart();
        await watch.storingPastLastEvent();
      }
      break;
    }
    case 'pg-restart':
      await restartPostgres(t, t.cluster!);
      break;
    case 'disk-full':
      await fillDisk(t);
      break;
    case 'disorder':
      break;
  }
}

/** PostgreSQL crashes in the middle of a batch (one of the app's connections inside a transaction that wrote), and
 * starts again 3 s later, 3 times. */
async function restartPostgres({ watch, notes, atEnd }: FaultTarget, cluster: OwnCluster): Promise<void> {
  for (let n = 0; n < 3; n++) {
    await sleep(2_000);
    const watcher = new pg.Client({ connectionString: cluster.url });
    watcher.on('error', () => undefined);
    await watcher.connect();
    let inBatch = false;
    const deadline = Date.now() + 20_000;
    while (!inBatch && Date.now() < deadline && !atEnd()) {
      const r = await watcher.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = 'faults' and pid <> pg_backend_pid()
           and xact_start is not null and backend_xid is not null`,
      );
      inBatch = Number(r.rows[0]?.n ?? 0) > 0;
      if (!inBatch) await sleep(5);
    }
    await watcher.end().catch(() => undefined);
    if (atEnd()) {
      notes.push(`restart ${n + 1}: the backlog was caught up first`);
      break;
    }
    if (!inBatch) notes.push(`restart ${n + 1}: no open write transaction seen within 20 s`);
    watch.note(inBatch ? 'PostgreSQL crash + restart (in a batch)' : 'PostgreSQL crash + restart');
    await cluster.crash();
    await sleep(3_000);
    await cluster.start();
    await watch.storingPastLastEvent();
  }
}

/** The data directory's tmpfs is filled while the app stores, kept full 20 s, then freed. */
async function fillDisk({ app, watch, dataDir, notes, atEnd }: FaultTarget): Promise<void> {
  await sleep(3_000);
  if (atEnd()) {
    notes.push('the backlog was caught up before the disk filled');
    return;
  }
  const ballast = path.join(dataDir, 'ballast');
  const stat = await fs.statfs(dataDir);
  watch.note('disk full');
  // fallocate reserves every free block at once (tmpfs supports it); a few kB may remain.
  await run('fallocate', ['-l', String(stat.bavail * stat.bsize), ballast]).catch(async () => {
    await run('dd', ['if=/dev/zero', `of=${ballast}`, 'bs=1M']).catch(() => undefined);
  });
  const full = await fs.statfs(dataDir);
  notes.push(
    `filled: ${fmt((full.bavail * full.bsize) / 1024, 0)} kB left of ${fmt((stat.blocks * stat.bsize) / 1048576, 0)} MB`,
  );
  await sleep(20_000);
  const exitCode = app.exitCode();
  const alive = exitCode === null;
  notes.push(`after 20 s full, the app was ${alive ? 'still running' : `gone (exit ${exitCode})`}`);
  watch.note('space returned');
  await fs.rm(ballast);
  if (!alive) {
    notes.push('the app was started again by the bench');
    await app.startAgain();
  }
}
