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
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { DatabaseOptions } from '../apps/server/src/db/database';
import { openDatabase } from '../apps/server/src/db/database';
import { checkDistinctRun, type DistinctCheck } from './lib/distinct-check';
import { distinctAppEnv } from './lib/distinct-app-run';
import { startDistinctRelay, type DistinctRelay } from './lib/distinct-relay';
import type { RelayEvent, RelayOptions } from './lib/distinct-relay-child';
import type { DistinctMeta } from './lib/distinct-stream';
import { repoRoot } from './lib/spawn-server';
import { fmt, median } from './lib/stats';
import { startAsUser, type UserServer } from './lib/user-process';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const FAULTS = ['drop', 'replay', 'disorder', 'kill', 'pg-restart', 'disk-full'] as const;
export type Fault = (typeof FAULTS)[number];

const APP_PORT = Number(process.env.BENCH_FAULTS_PORT ?? 3195);
const RELAY_PORT = APP_PORT + 1;
const PG_PORT = Number(process.env.BENCH_FAULTS_PG_PORT ?? 5499);
const PG_BIN = process.env.BENCH_FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** One sample of the app's /metrics (every 250 ms). */
type Sample = {
  at: number;
  /** The stored cursor's network time (now − lag), ms; null when the app did not answer. */
  cursorTime: number | null;
  /** The earliest the cursor's time can be (the request's time − lag − the lag's rounding). */
  cursorLow: number | null;
  lag: number | null;
  totalsLag: number | null;
  replayedSeq: number;
};

/** One fault injected: when, and where the stored cursor stood. */
type FaultEvent = { kind: string; at: number; cursorTime: number | null; lag: number | null };

type Outcome = {
  fault: Fault;
  frames: number;
  backlogSeconds: number;
  events: Array<FaultEvent & { recoverSeconds: number | null; lagAfter: number | null }>;
  catchUpSeconds: number;
  /** The stream's connections to the relay: the cursor each asked (in order), and the doctor's probes. */
  cursors: Array<number | null>;
  probes: number;
  cursorBack: string[];
  finalSeq: number | null;
  check: DistinctCheck;
  board: { rows: number; equal: boolean; differences: string[] };
  http: { ok: number; fiveXx: number; unreachable: number };
  errors: Map<string, number>;
  replayedSeq: number;
  disorder: { swap: number; back: number; frames: number };
  notes: string[];
};

/** The relay's time for frame i: the bench's relay produces frame i at relayStart + (i − backlog) / rate. */
const frameOfTime = (relayStart: number, frames: number, rate: number, time: number) =>
  frames + ((time - relayStart) * rate) / 1000;

async function metrics(origin: string, token: string): Promise<Omit<Sample, 'at'> | null> {
  const asked = Date.now();
  try {
    const response = await fetch(`${origin}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return null;
    const text = await response.text();
    const value = (re: RegExp) => {
      const m = re.exec(text)?.[1];
      return m === undefined ? null : Number(m);
    };
    const lag = value(/^manaboard_stream_lag_seconds\{[^}]*\} (\S+)$/m);
    return {
      cursorTime: lag === null ? null : Date.now() - lag * 1000,
      // The app read its clock between the request and the answer (a loaded machine answers in up to seconds).
      cursorLow: lag === null ? null : asked - lag * 1000 - 50,
      lag,
      totalsLag: value(/^manaboard_totals_lag_seconds (\S+)$/m),
      replayedSeq: value(/^manaboard_stream_skipped_total\{reason="replayed-seq"\} (\S+)$/m) ?? 0,
    };
  } catch {
    return null;
  }
}

/** A PostgreSQL cluster of the bench's own (the machine's server is shared): initdb, start, crash, start. */
class OwnCluster {
  private constructor(
    readonly dir: string,
    readonly url: string,
  ) {}

  static async create(): Promise<OwnCluster> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-faults-pg-'));
    // PostgreSQL refuses to run as root: the cluster belongs to the postgres user when the bench runs as root.
    if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:postgres', dir]);
    const cluster = new OwnCluster(dir, `postgres://postgres@127.0.0.1:${PG_PORT}/faults`);
    await cluster.pg('initdb', [
      '-D',
      path.join(dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
    ]);
    await cluster.start();
    const client = new pg.Client({ connectionString: cluster.url.replace(/\/faults$/, '/postgres') });
    await client.connect();
    await client.query('create database faults');
    await client.end();
    return cluster;
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const file = path.join(PG_BIN, program);
    if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
    else await run(file, args);
  }

  start(): Promise<void> {
    return this.pg('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      `-p ${PG_PORT} -k ${this.dir} -c listen_addresses=127.0.0.1`,
      '-w',
      'start',
    ]);
  }

  /** A crash: no checkpoint, every connection cut; recovery replays the WAL at the next start. */
  crash(): Promise<void> {
    return this.pg('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.pg('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']).catch(
      () => undefined,
    );
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}

/** The board as stored: every period's totals and ranks, one line per author, sorted. */
async function boardRows(where: DatabaseOptions): Promise<string[]> {
  const handle = await openDatabase(where);
  try {
    const rows = await handle.db
      .selectFrom('mana_totals')
      .select(['period', 'author_id', 'mana', 'posts', 'likes', 'replies', 'reposts', 'quotes', 'rank'])
      .execute();
    return rows
      .map((r) =>
        [r.period, r.author_id, r.mana, r.posts, r.likes, r.replies, r.reposts, r.quotes, r.rank].join(' '),
      )
      .sort();
  } finally {
    await handle.close();
  }
}

async function storedSeq(where: DatabaseOptions): Promise<number | null> {
  const handle = await openDatabase(where);
  try {
    const row = await handle.db
      .selectFrom('ingest_state')
      .select('cursor')
      .where('job', '=', 'stream')
      .executeTakeFirst();
    const seq = (row?.cursor as { seq?: unknown } | undefined)?.seq;
    return typeof seq === 'number' ? seq : null;
  } finally {
    await handle.close();
  }
}

/** `npm run mana:rebuild` as an operator runs it (the server stopped: the command opens the database itself). */
async function rebuild(env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await run('npm', ['run', '--silent', 'mana:rebuild'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  // Its answer is its stdout's last line (a build first writes to stderr).
  return (stdout.trim() || stderr.trim()).split('\n').at(-1) ?? '';
}

export async function runFault(fault: Fault, meta: DistinctMeta): Promise<Outcome> {
  const frames = meta.params.frames;
  const rate = Number(process.env.BENCH_FAULTS_RATE ?? 500);
  const relayStart = Date.now();
  const notes: string[] = [];
  // Each connection the relay served: the cursor it asked, where the relay began, the frames it sent. The
  // deployment check's probe (the doctor: Node's own WebSocket, user-agent "node", opened and closed at once) asks
  // no cursor; the stream's reader is the `ws` client (no user-agent).
  type Connection = { cursor: number | null; from: number; frames: number | null; probe: boolean };
  const connections: Connection[] = [];
  const byId = new Map<string, Connection>();
  let generation = 0;
  const disorder = { swap: 0, back: 0, frames: 0 };
  let ended = false;
  const onEvent = (event: RelayEvent) => {
    if (event.type === 'connect') {
      const c = { cursor: event.cursor, from: event.from, frames: null, probe: event.agent === 'node' };
      connections.push(c);
      byId.set(`${generation}:${event.id}`, c);
      if (!c.probe) ended = false;
      if (process.env.BENCH_FAULTS_VERBOSE)
        console.log(`    relay: connection from ${event.cursor} (sends from ${event.from}, ${event.agent})`);
    } else if (event.type === 'close') {
      const c = byId.get(`${generation}:${event.id}`);
      if (c) c.frames = event.frames;
    } else if (event.type === 'end') ended = true;
    else {
      disorder[event.kind]++;
      disorder.frames += event.frames;
    }
  };
  const relayOptions: RelayOptions = {
    key: meta.key,
    rate,
    backlog: frames,
    fromFirst: true,
    port: RELAY_PORT,
    relayStart,
    ...(fault === 'disorder' ? { disorder: { every: 5_000, back: 20 } } : {}),
  };
  let relay: DistinctRelay = await startDistinctRelay(relayOptions, onEvent);

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
  const env = { ...distinctAppEnv(relay, meta, origin, token), ...dbEnv };
  const errors = new Map<string, number>();
  const refillAsks = new Set<number>();
  const listen = (app: UserServer) => {
    let buffered = '';
    app.child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as {
          level?: number;
          msg?: string;
          err?: { message?: string };
          kind?: string;
          asked?: number;
        };
        // A start that refilled its waiting room asked the relay from before its stored cursor (the app's log).
        if (entry.kind === 'refilled' && typeof entry.asked === 'number') refillAsks.add(entry.asked);
        if ((entry.level ?? 0) < 50) continue;
        const key = `${entry.msg ?? '?'}: ${(entry.err?.message ?? '').split('\n')[0]?.slice(0, 160)}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    });
  };
  const startApp = async () => {
    const started = await startAsUser(APP_PORT, dataDir, env);
    listen(started);
    return started;
  };
  let app = await startApp();

  const samples: Sample[] = [];
  const http = { ok: 0, fiveXx: 0, unreachable: 0 };
  const events: FaultEvent[] = [];
  let finished = false;
  const last = () => samples.at(-1);
  const note = (kind: string) => {
    const s = [...samples].reverse().find((x) => x.cursorTime !== null);
    events.push({ kind, at: Date.now(), cursorTime: s?.cursorTime ?? null, lag: s?.lag ?? null });
  };
  const sampler = (async () => {
    while (!finished) {
      const m = await metrics(origin, token);
      samples.push({
        at: Date.now(),
        ...(m ?? { cursorTime: null, cursorLow: null, lag: null, totalsLag: null, replayedSeq: 0 }),
      });
      // The board as a visitor reads it meanwhile: never a 5xx.
      try {
        const response = await fetch(`${origin}/api/mana?limit=20`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status >= 500) http.fiveXx++;
        else http.ok++;
      } catch {
        http.unreachable++;
      }
      await sleep(250);
    }
  })();
  const cursorFrame = () => {
    const t = last()?.cursorTime;
    return t === null || t === undefined ? null : frameOfTime(relayStart, frames, rate, t);
  };
  /** Resolves once the stored cursor has moved past `frame` (the stream stores again). */
  const storingPast = async (frame: number) => {
    for (;;) {
      const f = cursorFrame();
      if (f !== null && f > frame + rate / 5) return;
      await sleep(100);
    }
  };
  const firstProgress = storingPast(0);

  // The PostgreSQL cursor, read exactly every 100 ms (the embedded database has one owner: there, the metrics' lag
  // and each connection's cursor stand for it).
  const seqs: number[] = [];
  const seqPoller = cluster
    ? (async () => {
        while (!finished) {
          const client = new pg.Client({ connectionString: cluster.url });
          client.on('error', () => undefined);
          try {
            await client.connect();
            while (!finished) {
              const r = await client.query<{ seq: number | null }>(
                "select (cursor->>'seq')::bigint as seq from ingest_state where job = 'stream'",
              );
              const seq = r.rows[0]?.seq;
              if (seq !== null && seq !== undefined) seqs.push(Number(seq));
              await sleep(100);
            }
          } catch {
            await sleep(200);
          } finally {
            await client.end().catch(() => undefined);
          }
        }
      })()
    : Promise.resolve();

  const injector = (async () => {
    await firstProgress;
    const atEnd = () => ended || (cursorFrame() ?? 0) >= frames - rate;
    switch (fault) {
      case 'drop': {
        const every = Number(process.env.BENCH_FAULTS_DROP_SECONDS ?? 20) * 1000;
        while (!atEnd()) {
          const until = Date.now() + every;
          while (Date.now() < until && !finished) await sleep(100);
          if (atEnd() || finished) break;
          note('drop');
          relay.child.send({ drop: true });
        }
        break;
      }
      case 'replay': {
        for (let n = 0; n < 3 && !atEnd(); n++) {
          await sleep(n === 0 ? 5_000 : 20_000);
          if (atEnd()) break;
          note('relay restart');
          relay.child.kill('SIGKILL');
          await new Promise((resolve) => relay.child.once('exit', resolve));
          await sleep(1_000);
          generation++;
          relay = await startDistinctRelay({ ...relayOptions, rewindFirst: 20_000 }, onEvent);
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
          note('SIGKILL');
          const pid = await app.pid();
          if (pid) process.kill(pid, 'SIGKILL');
          await app.stop();
          app = await startApp();
          const e = events.at(-1);
          await storingPast(e?.cursorTime ? frameOfTime(relayStart, frames, rate, e.cursorTime) : 0);
        }
        break;
      }
      case 'pg-restart': {
        for (let n = 0; n < 3; n++) {
          await sleep(2_000);
          // In the middle of a batch: one of the app's connections inside a transaction that wrote.
          const watcher = new pg.Client({ connectionString: cluster!.url });
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
          note(inBatch ? 'PostgreSQL crash + restart (in a batch)' : 'PostgreSQL crash + restart');
          await cluster!.crash();
          await sleep(3_000);
          await cluster!.start();
          const e = events.at(-1);
          await storingPast(e?.cursorTime ? frameOfTime(relayStart, frames, rate, e.cursorTime) : 0);
        }
        break;
      }
      case 'disk-full': {
        await sleep(3_000);
        if (atEnd()) {
          notes.push('the backlog was caught up before the disk filled');
          break;
        }
        const ballast = path.join(dataDir, 'ballast');
        const stat = await fs.statfs(dataDir);
        note('disk full');
        // fallocate reserves every free block at once (tmpfs supports it); a few kB may remain.
        await run('fallocate', ['-l', String(stat.bavail * stat.bsize), ballast]).catch(async () => {
          await run('dd', ['if=/dev/zero', `of=${ballast}`, 'bs=1M']).catch(() => undefined);
        });
        const full = await fs.statfs(dataDir);
        notes.push(
          `filled: ${fmt((full.bavail * full.bsize) / 1024, 0)} kB left of ${fmt((stat.blocks * stat.bsize) / 1048576, 0)} MB`,
        );
        await sleep(20_000);
        const alive = app.child.exitCode === null;
        notes.push(
          `after 20 s full, the app was ${alive ? 'still running' : `gone (exit ${app.child.exitCode})`}`,
        );
        note('space returned');
        await fs.rm(ballast);
        if (!alive) {
          notes.push('the app was started again by the bench');
          app = await startApp();
        }
        break;
      }
      case 'disorder':
        break;
    }
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
      const f = cursorFrame();
      if (ended && f !== null && f >= frames - 1 - rate / 10) {
        caughtUpAt = Date.now();
        break;
      }
      await sleep(250);
    }
    await injector;
    for (let t = 0; t < 120 && last()?.totalsLag !== 0; t++) await sleep(500);
    if (last()?.totalsLag !== 0) notes.push(`totals still lagging ${last()?.totalsLag} s at the stop`);
  } finally {
    finished = true;
    await sampler;
    await seqPoller;
    await app.stop();
    await relay.close();
  }

  // The stored cursor, seen going back: each connection's cursor (exact), the metrics' lag (within its 0.1 s
  // rounding and the sample's time: 250 ms), and on PostgreSQL the cursor read every 100 ms (exact). A start's
  // refill asks from before the stored cursor (the oldest waiting like, whose frames it does not store again):
  // such a connection is left out.
  const cursorBack: string[] = [];
  const readers = connections.filter((c) => !c.probe && !(c.cursor !== null && refillAsks.has(c.cursor)));
  if (refillAsks.size > 0)
    notes.push(
      `refills of the waiting room at a start asked from ${[...refillAsks].join(', ')} (left out above)`,
    );
  for (let k = 1; k < readers.length; k++) {
    const [a, b] = [readers[k - 1]?.cursor, readers[k]?.cursor];
    if (a !== null && a !== undefined && (b === null || b === undefined || b < a))
      cursorBack.push(`connection ${k + 1} asked ${b} after ${a}`);
  }
  // A sample's cursor is at most its answer's time − lag (+ the rounding), at least its request's time − lag: it
  // went back only when a sample's most is below an earlier sample's least.
  let low = -Infinity;
  for (const s of samples) {
    if (s.cursorTime === null || s.cursorLow === null) continue;
    if (s.cursorTime + 50 < low)
      cursorBack.push(`metrics: at least ${fmt(low - s.cursorTime - 50, 0)} ms back`);
    low = Math.max(low, s.cursorLow);
  }
  for (let k = 1; k < seqs.length; k++)
    if ((seqs[k] ?? 0) < (seqs[k - 1] ?? 0))
      cursorBack.push(`PostgreSQL: seq ${seqs[k]} after ${seqs[k - 1]}`);

  try {
    const finalSeq = await storedSeq(where);
    const check = await checkDistinctRun(where, meta);
    const before = await boardRows(where);
    notes.push(`rebuild: ${await rebuild({ ...dbEnv, DATA_DIR: dataDir })}`);
    const after = await boardRows(where);
    const afterSet = new Set(after);
    const beforeSet = new Set(before);
    // Paired by period and author: the board's line, then the rebuild's.
    const key = (r: string) => r.split(' ').slice(0, 2).join(' ');
    const afterByKey = new Map(after.map((r) => [key(r), r]));
    const differences = [
      ...before.filter((r) => !afterSet.has(r)).map((r) => `${r} → ${afterByKey.get(key(r)) ?? 'absent'}`),
      ...after
        .filter((r) => !beforeSet.has(r) && !before.some((b) => key(b) === key(r)))
        .map((r) => `absent → ${r}`),
    ];
    const recovered = events.map((e) => {
      const from = e.cursorTime ?? -Infinity;
      const s = samples.find((x) => x.at > e.at && x.cursorTime !== null && x.cursorTime > from + 200);
      return { ...e, recoverSeconds: s ? (s.at - e.at) / 1000 : null, lagAfter: s?.lag ?? null };
    });
    const first = samples.find((s) => s.lag !== null);
    return {
      fault,
      frames,
      backlogSeconds: first?.lag ?? Number.NaN,
      events: recovered,
      catchUpSeconds: ((caughtUpAt ?? Date.now()) - (first?.at ?? startedAt)) / 1000,
      cursors: readers.map((c) => c.cursor),
      probes: connections.length - readers.length,
      cursorBack,
      finalSeq,
      check,
      board: { rows: before.length, equal: differences.length === 0 && before.length > 0, differences },
      http,
      errors,
      replayedSeq: Math.max(0, ...samples.map((s) => s.replayedSeq)),
      disorder,
      notes,
    };
  } finally {
    if (mounted) await run('umount', [dataDir]).catch(() => undefined);
    if (process.env.BENCH_FAULTS_KEEP) console.log(`    kept ${dataDir}`);
    else await fs.rm(dataDir, { recursive: true, force: true });
    await cluster?.destroy();
  }
}

function report(o: Outcome): void {
  const c = o.check;
  const exact =
    c.posts.exact === c.posts.expected &&
    c.official.exact === c.official.expected &&
    c.likes.counted === c.likes.expected &&
    c.reposts.counted === c.reposts.expected &&
    c.strays === 0;
  const recover = o.events.map((e) => e.recoverSeconds).filter((s): s is number => s !== null);
  console.log(
    `  ${o.fault}: ${o.events.length} events; backlog ${fmt(o.backlogSeconds / 60, 1)} min, caught up in ` +
      `${fmt(o.catchUpSeconds, 1)} s (${fmt(o.frames / o.catchUpSeconds, 0)} frames/s with the faults); ` +
      `recovered in median ${fmt(median(recover), 1)} s, max ${fmt(Math.max(...recover), 1)} s` +
      (recover.length < o.events.length ? ` (${o.events.length - recover.length} never seen moving on)` : ''),
  );
  for (const e of o.events)
    console.log(
      `    ${e.kind}: lag before ${fmt(e.lag ?? Number.NaN, 1)} s, after ${fmt(e.lagAfter ?? Number.NaN, 1)} s, ` +
        `stored again after ${e.recoverSeconds === null ? '—' : fmt(e.recoverSeconds, 1)} s`,
    );
  console.log(
    `    counts ${exact ? 'EXACT' : 'NOT EXACT'}: ${c.posts.exact}/${c.posts.expected} programme posts and ` +
      `${c.official.exact}/${c.official.expected} official posts exact; likes ${c.likes.counted}/${c.likes.expected}, ` +
      `reposts ${c.reposts.counted}/${c.reposts.expected}; ${c.strays} stray rows` +
      (c.wrong.length ? `; wrong: ${c.wrong.slice(0, 3).join('; ')}` : ''),
  );
  console.log(
    `    cursor: final seq ${o.finalSeq} of ${o.frames}; ${o.cursors.length} connections (and ${o.probes} probes) asked ` +
      `${o.cursors.slice(0, 12).join(', ')}${o.cursors.length > 12 ? ', …' : ''}; ` +
      (o.cursorBack.length ? `WENT BACK: ${o.cursorBack.slice(0, 5).join('; ')}` : 'never seen going back'),
  );
  console.log(
    `    board ${o.board.equal ? '= rebuild' : '≠ rebuild'} (${o.board.rows} rows of mana_totals)` +
      (o.board.differences.length
        ? ` (period author mana posts likes replies reposts quotes rank), ${o.board.differences.length} differ: ${o.board.differences.slice(0, 4).join('; ')}`
        : '') +
      `; the board meanwhile: ${o.http.ok} answers < 500, ${o.http.fiveXx} 5xx, ${o.http.unreachable} unreachable`,
  );
  if (o.fault === 'disorder' || o.replayedSeq > 0)
    console.log(
      `    skipped as replayed-seq: ${o.replayedSeq} (the last process's count); sent out of order: ` +
        `${o.disorder.swap} swaps, ${o.disorder.back} steps back (${o.disorder.frames} frames)`,
    );
  if (o.errors.size)
    console.log(
      `    the app's errors: ${[...o.errors]
        .slice(0, 6)
        .map(([m, n]) => `${n}× ${m}`)
        .join(' | ')}`,
    );
  for (const n of o.notes) console.log(`    ${n}`);
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
