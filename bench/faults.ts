// Issue 32, part 3: faults at full speed, with a backlog. `npm start` on Bluesky reads the distinct-traffic relay
// (lib/distinct-relay-child.ts, its own process) from the first frame of a backlog of BENCH_DISTINCT_FRAMES frames
// (default here 320,000) produced at BENCH_FAULTS_RATE events/s (default 500: a 10.7-minute backlog), and one fault
// is injected while it catches up:
//   drop        the relay drops every connection every 20 s (BENCH_FAULTS_DROP_SECONDS);
//   replay      the relay is SIGKILLed every 20 s (3 times) and restarted, and serves its first connection from
//               20,000 frames before the cursor asked (frames already stored, sent again);
//   disorder    every 5,000 frames the relay sends a frame after the next one, or sends the last 20 frames again
//               (a seq that goes backwards);
//   kill        the server process (API and worker, `npm start`) is SIGKILLed while it stores, 5 times, and
//               started again on the same data;
//   pg-restart  on PostgreSQL (a cluster of the bench's own, in a temporary directory): the server is stopped
//               (`pg_ctl stop -m immediate`, a crash) when the app's connection is inside a transaction, 3 times,
//               and started again 3 s later;
//   disk-full   the embedded database's directory is a tmpfs; it is filled while the app stores, kept full 20 s,
//               then freed.
// Afterwards (the app stopped): every planted like, repost, reply, quote and deletion counted exactly once
// (lib/distinct-check.ts), the stored cursor at the last frame and never seen going back, and the board
// (mana_totals) equal to what `npm run mana:rebuild` makes of the stored records.
// Usage: npx tsx bench/faults.ts [drop|replay|disorder|kill|pg-restart|disk-full …] (all without arguments), or
// `npm run bench faults`. Not in CI. Figures: docs/benchmarks.md, "Faults at full speed (issue 32)".
// This file runs one fault from start to check; its parts are in lib/: faults-relay.ts (the relay and its
// connections), faults-app.ts (the app's process and errors), faults-watch.ts (metrics sampled meanwhile),
// faults-inject.ts (the faults), faults-cluster.ts (the bench's PostgreSQL), faults-checks.ts (the checks
// afterwards) and faults-report.ts (the figures printed).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DatabaseOptions } from '../apps/server/src/db/database';
import { distinctAppEnv } from './lib/distinct-app-run';
import { checkDistinctRun } from './lib/distinct-check';
import type { DistinctMeta } from './lib/distinct-stream';
import { AppUnderFault } from './lib/faults-app';
import {
  boardDifferences,
  boardRows,
  cursorWentBack,
  rebuild,
  recoveries,
  storedSeq,
} from './lib/faults-checks';
import { OwnCluster } from './lib/faults-cluster';
import { FAULTS, injectFault, type Fault } from './lib/faults-inject';
import { FaultRelay } from './lib/faults-relay';
import { report, type Outcome } from './lib/faults-report';
import { FaultWatch } from './lib/faults-watch';
import { fmt } from './lib/stats';

export { FAULTS, type Fault } from './lib/faults-inject';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const APP_PORT = Number(process.env.BENCH_FAULTS_PORT ?? 3195);
const RELAY_PORT = APP_PORT + 1;

export async function runFault(fault: Fault, meta: DistinctMeta): Promise<Outcome> {
  const frames = meta.params.frames;
  const rate = Number(process.env.BENCH_FAULTS_RATE ?? 500);
  const relayStart = Date.now();
  const notes: string[] = [];
  const relay = await FaultRelay.start({
    key: meta.key,
    rate,
    backlog: frames,
    fromFirst: true,
    port: RELAY_PORT,
    relayStart,
    ...(fault === 'disorder' ? { disorder: { every: 5_000, back: 20 } } : {}),
  });

  // Where the app keeps its data: a temporary directory, a small tmpfs (disk-full), or the bench's PostgreSQL.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-faults-'));
  let mounted = false;
  let cluster: OwnCluster | null = null;
  if (fault === 'disk-full') {
    await run('mount', [
      '-t',
      'tmpfs',
      '-o',
      `size=${process.env.BENCH_FAULTS_TMPFS ?? '768m'}`,
      'tmpfs',
      dataDir,
    ]);
    mounted = true;
  }
  if (fault === 'pg-restart') cluster = await OwnCluster.create();
  const where: DatabaseOptions = cluster
    ? { kind: 'postgres', url: cluster.url }
    : { kind: 'pglite', dataDir };
  const dbEnv: Record<string, string> = cluster ? { DATABASE_URL: cluster.url } : { DATABASE_URL: '' };

  const origin = `http://127.0.0.1:${APP_PORT}`;
  const token = randomBytes(24).toString('hex');
  const env = { ...distinctAppEnv(relay.current, meta, origin, token), ...dbEnv };
  const app = await AppUnderFault.start(APP_PORT, dataDir, env);
  const watch = new FaultWatch(origin, token, relayStart, frames, rate, cluster?.url ?? null);
  const firstProgress = watch.storingPast(0);

  const injector = (async () => {
    await firstProgress;
    const atEnd = () => relay.ended || (watch.cursorFrame() ?? 0) >= frames - rate;
    await injectFault(fault, { relay, app, watch, cluster, dataDir, atEnd, notes });
  })();

  // Caught up: the relay sent its last frame and the stored cursor stands at it; then the totals catch up too.
  const timeoutMs = Number(process.env.BENCH_FAULTS_TIMEOUT ?? 900) * 1000;
  const startedAt = Date.now();
  let caughtUpAt: number | undefined;
  try {
    await firstProgress;
    for (;;) {
      if (Date.now() - startedAt > timeoutMs)
        throw new Error(`${fault}: not caught up in ${timeoutMs / 1000} s`);
      const f = watch.cursorFrame();
      if (relay.ended && f !== null && f >= frames - 1 - rate / 10) {
        caughtUpAt = Date.now();
        break;
      }
      await sleep(250);
    }
    await injector;
    for (let t = 0; t < 120 && watch.last()?.totalsLag !== 0; t++) await sleep(500);
    if (watch.last()?.totalsLag !== 0)
      notes.push(`totals still lagging ${watch.last()?.totalsLag} s at the stop`);
  } finally {
    await watch.stop();
    await app.stop();
    await relay.close();
  }

  const { samples } = watch;
  // A start's refill asks from before the stored cursor (the oldest waiting like, whose frames it does not store
  // again): such a connection is left out of the cursor's check.
  const readers = relay.readers().filter((c) => !(c.cursor !== null && app.refillAsks.has(c.cursor)));
  if (app.refillAsks.size > 0)
    notes.push(
      `refills of the waiting room at a start asked from ${[...app.refillAsks].join(', ')} (left out of the cursor check)`,
    );
  const cursorBack = cursorWentBack(readers, samples, watch.seqs);
  try {
    const finalSeq = await storedSeq(where);
    const check = await checkDistinctRun(where, meta);
    const before = await boardRows(where);
    notes.push(`rebuild: ${await rebuild({ ...dbEnv, DATA_DIR: dataDir })}`);
    const differences = boardDifferences(before, await boardRows(where));
    const first = samples.find((s) => s.lag !== null);
    return {
      fault,
      frames,
      backlogSeconds: first?.lag ?? Number.NaN,
      events: recoveries(watch.events, samples),
      catchUpSeconds: ((caughtUpAt ?? Date.now()) - (first?.at ?? startedAt)) / 1000,
      cursors: readers.map((c) => c.cursor),
      probes: relay.connections.length - relay.readers().length,
      cursorBack,
      finalSeq,
      check,
      board: { rows: before.length, equal: differences.length === 0 && before.length > 0, differences },
      http: watch.http,
      errors: app.errors,
      replayedSeq: Math.max(0, ...samples.map((s) => s.replayedSeq)),
      disorder: relay.disorder,
      notes,
    };
  } finally {
    if (mounted) await run('umount', [dataDir]).catch(() => undefined);
    if (process.env.BENCH_FAULTS_KEEP) console.log(`    kept ${dataDir}`);
    else await fs.rm(dataDir, { recursive: true, force: true });
    await cluster?.destroy();
  }
}

export async function faultsBench(wanted: readonly string[]): Promise<void> {
  // A 10-minute backlog at the relay's rate (BENCH_FAULTS_RATE, default 500 events/s: 320,000 frames).
  process.env.BENCH_DISTINCT_FRAMES ??= '320000';
  const { loadDistinctStream } = await import('./lib/distinct-stream');
  const meta = await loadDistinctStream((line) => console.log(`  ${line}`));
  const faults = wanted.length ? wanted : FAULTS;
  for (const f of faults)
    if (!FAULTS.includes(f as Fault)) throw new Error(`unknown fault ${f}: ${FAULTS.join(', ')}`);
  const [l1, l5] = os.loadavg();
  console.log(
    `faults at full speed (issue 32): ${meta.params.frames} distinct frames at ${process.env.BENCH_FAULTS_RATE ?? 500} events/s, ` +
      `load average ${fmt(l1 ?? 0, 1)} / ${fmt(l5 ?? 0, 1)} on ${os.cpus().length} cores`,
  );
  for (const f of faults) {
    const started = Date.now();
    try {
      report(await runFault(f as Fault, meta));
    } catch (error) {
      console.log(`  ${f}: FAILED: ${String(error)}`);
    }
    console.log(
      `    (${fmt((Date.now() - started) / 1000, 0)} s, load average ${fmt(os.loadavg()[0] ?? 0, 1)})`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await faultsBench(process.argv.slice(2));
  // The relay's and app's children are gone; a stray handle must not hold the bench.
  process.exit(0);
}
