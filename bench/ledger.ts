// Issue 30's ledger benchmark: a week of 1,000,000 records served as users get it (GET /api/ledger/<week>, the
// week built as it is read, with a browser's Accept-Encoding (Chrome's: zstd; and, beside it, `br, gzip`) against reading the same rows with one plain query in a bare
// process, in interleaved rounds (bare, ledger, bare, …; each ledger round over the mean of the bare rounds around
// it; medians), and the server's resident memory growth while it serves; then the week closed (stored as gzip'd
// pieces) and its edition served once. BENCH_LEDGER_RECORDS (default 1,000,000), BENCH_LEDGER_DB (postgres |
// pglite), BENCH_ROUNDS.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { closeWeeks } from '../apps/server/src/modules/ledger/ledger-close.service';
import { ensureLedgerSeed } from './lib/ledger-seed';
import { BENCH_PG_URL, openSeeded, type SeededDb } from './lib/mana-db';
import { repoRoot, startBenchServer, type BenchServer } from './lib/spawn-server';
import { benchRounds, fmt, median } from './lib/stats';

const run = promisify(execFile);
const MB = 1024 * 1024;

type Read = { rows: number; ms: number; bytes?: number; lines?: number };

async function bareRead(seeded: SeededDb, from: Date, to: Date): Promise<Read> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/lib/ledger-bare-read.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      BENCH_DB: JSON.stringify(seeded),
      BENCH_FROM: from.toISOString(),
      BENCH_TO: to.toISOString(),
    },
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim()) as Read;
}

/** Chrome's Accept-Encoding (what a browser sends), and a client that takes only brotli and gzip. */
const BROWSER = 'gzip, deflate, br, zstd';
const NO_ZSTD = 'br, gzip';

/** Reads a ledger as a client does (decompressing what the server compressed); rows = the end line's records. */
async function served(url: string, accept = BROWSER): Promise<Read & { encoding: string; sha?: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { 'accept-encoding': accept } });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  let bytes = 0;
  let lines = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of response.body) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    bytes += buffer.length;
    for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) lines++;
    tail = Buffer.concat([tail, buffer.subarray(-400)]).subarray(-400);
  }
  const ms = performance.now() - started;
  const last = tail.toString('utf8').trimEnd().split('\n').at(-1) ?? '{}';
  const end = JSON.parse(last) as { type?: string; records?: number };
  if (end.type !== 'end') throw new Error(`${url} ended without its end line`);
  return {
    rows: end.records ?? 0,
    ms,
    bytes,
    lines,
    encoding: response.headers.get('content-encoding') ?? 'identity',
    ...(response.headers.get('x-ledger-sha256')
      ? { sha: response.headers.get('x-ledger-sha256') ?? '' }
      : {}),
  };
}

function rss(server: BenchServer, message: 'reset' | 'rss'): Promise<{ rss: number; peak: number }> {
  return new Promise((resolve) => {
    server.child.once('message', (m) => resolve(m as { rss: number; peak: number }));
    server.child.send(message);
  });
}

const rate = (r: Read) => r.rows / (r.ms / 1000);

export async function ledgerBench(): Promise<void> {
  const rounds = benchRounds();
  const kind = process.env.BENCH_LEDGER_DB === 'pglite' ? 'pglite' : 'postgres';
  const wanted = Number(process.env.BENCH_LEDGER_RECORDS ?? 1_000_000);
  const { seeded, week, records } = await ensureLedgerSeed(kind, {
    members: 2_000,
    postsPerMember: 10,
    records: wanted,
  });
  // The server's own process settings, as `npm start` sets them (scripts/runtime-env.mjs).
  const server = await startBenchServer(
    {
      BENCH_DB: JSON.stringify(seeded),
      NODE_OPTIONS: '--max-semi-space-size=4',
      GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072',
    },
    'bench/lib/ledger-bench-server.ts',
    ['--expose-gc-as=__manaboardGc', ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])],
  );
  const url = `${server.origin}/api/ledger/${week.week}`;
  const ratios: number[] = [];
  const ledgerRates: number[] = [];
  const noZstdRatios: number[] = [];
  const noZstdRates: number[] = [];
  const bareRates: number[] = [];
  const growth: number[] = [];
  let last: Awaited<ReturnType<typeof served>> | undefined;
  let lastNoZstd: Awaited<ReturnType<typeof served>> | undefined;
  try {
    await fetch(`${server.origin}/api/ledger`); // warm: connections open, code loaded
    // The first ledger a fresh server serves: its growth includes what any first large answer costs once.
    const cold = await rss(server, 'reset');
    const first = await served(url);
    const coldGrowth = ((await rss(server, 'rss')).peak - cold.rss) / MB;
    console.log(
      `  [ledger] first serve after start: ${fmt(rate(first), 0)} rows/s (${fmt(first.ms / 1000, 1)} s), rss +${fmt(coldGrowth, 1)} MB`,
    );
    let before = await bareRead(seeded, week.from, week.to);
    bareRates.push(rate(before));
    for (let round = 0; round < rounds; round++) {
      const base = await rss(server, 'reset');
      last = await served(url);
      const mem = await rss(server, 'rss');
      growth.push((mem.peak - base.rss) / MB);
      lastNoZstd = await served(url, NO_ZSTD);
      const after = await bareRead(seeded, week.from, week.to);
      bareRates.push(rate(after));
      const bare = (rate(before) + rate(after)) / 2;
      ledgerRates.push(rate(last));
      ratios.push(rate(last) / bare);
      noZstdRates.push(rate(lastNoZstd));
      noZstdRatios.push(rate(lastNoZstd) / bare);
      before = after;
      console.log(
        `  [ledger] round ${round + 1}: ${fmt(rate(last), 0)} rows/s served (${fmt(last.ms / 1000, 1)} s, ${last.encoding}), ` +
          `${fmt(rate(lastNoZstd), 0)} rows/s to a client without zstd (${fmt(lastNoZstd.ms / 1000, 1)} s, ${lastNoZstd.encoding}), ` +
          `bare ${fmt(rate(after), 0)} rows/s, rss +${fmt(growth.at(-1) ?? 0, 1)} MB`,
      );
    }
    const scale = `${records.toLocaleString('en-US')} records in ${week.week}, ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`;
    console.log(
      `ledger of the open week as users get it (GET /api/ledger/${week.week}, ${last?.encoding}; ${scale}; ${rounds} interleaved rounds): ` +
        `${fmt(median(ratios))}× the rate of one plain query in a bare process [goal ≥ 0.5×] ` +
        `(${fmt(median(ledgerRates), 0)} rows/s vs ${fmt(median(bareRates), 0)} rows/s; ${fmt((last?.bytes ?? 0) / MB, 0)} MB, ${last?.lines?.toLocaleString('en-US')} lines); ` +
        `server resident memory growth while serving: median ${fmt(median(growth), 1)} MB, max ${fmt(Math.max(...growth), 1)} MB [goal ≤ 50 MB]; ` +
        `its first serve after start +${fmt(coldGrowth, 1)} MB`,
    );
    console.log(
      `  beside it, a client that takes only ${NO_ZSTD} (${lastNoZstd?.encoding}): ${fmt(median(noZstdRatios))}× ` +
        `(${fmt(median(noZstdRates), 0)} rows/s)`,
    );

    // Closing: the same week stored byte for byte, then its edition served from the stored pieces.
    // The close reads on two connections of one snapshot (ledger-snapshot.ts) and writes on a third.
    const handle = await openSeeded(seeded, 4);
    try {
      const started = performance.now();
      const { closed } = await closeWeeks({ db: handle.db, kind, network: 'bluesky' }, new Date());
      const storeMs = performance.now() - started;
      const mine = closed.find((c) => c.week === week.week);
      if (mine) {
        const edition = await served(`${url}/${mine.edition}`);
        console.log(
          `ledger closing (${scale}): stored in ${fmt(storeMs / 1000, 1)} s (${fmt(mine.byteLength / MB, 0)} MB, sha ${mine.sha256.slice(0, 19)}…); ` +
            `the stored edition served at ${fmt(rate(edition), 0)} rows/s (${fmt(rate(edition) / median(bareRates))}× the bare query's median)`,
        );
      }
      // The seed stays reusable: its weeks open again.
      await handle.db.deleteFrom('ledgers').execute();
    } finally {
      await handle.close();
    }
  } finally {
    await server.stop();
    if (kind === 'postgres' && process.env.BENCH_KEEP !== '1' && process.env.BENCH_KEEP_LEDGER !== '1') {
      const client = new pg.Client({ connectionString: BENCH_PG_URL });
      await client.connect();
      await client.query(
        `drop schema if exists ${pg.escapeIdentifier((seeded as { schema: string }).schema)} cascade`,
      );
      await client.end();
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(repoRoot, 'bench/ledger.ts'))
  await ledgerBench();
