// Issue 31: the consumer on distinct traffic. A stream generated once (lib/distinct-stream.ts: ≥ 1,000,000 frames,
// ≥ 500,000 accounts, every record new, the real network's mix, signed sync 1.1 commits with their tree blocks) is
// served by a relay in its own process (lib/distinct-relay-child.ts) as a backlog of BENCH_DISTINCT_FRAMES frames
// already produced (at the network's 1,500 events/s: 1M frames are an 11-minute backlog). Measured in interleaved
// rounds: the plain reader (its own process: reads the relay and only splits each frame), then `npm start` on
// Bluesky (embedded database, defaults) reading the whole backlog from its first frame, then the plain reader
// again. Reported: the app's events/s (frames read and stored with their cursor) per tenth of the run, the ratio of
// the whole to the readers around it, the server process's CPU and resident memory, each thread's V8 heap at each
// tenth's end, its event-loop delay (each 2-s window's, in order), and whether every planted like and repost is
// counted exactly (its database checked after it stops; BENCH_DISTINCT_CHECK=off skips it).
// BENCH_DISTINCT_FRAMES (default 1,000,000; 200,000 for a quick run), BENCH_DISTINCT_ROUNDS (default 1),
// BENCH_DISTINCT_BOARD_SECONDS (10 connections on the cached board meanwhile; default 0: none),
// BENCH_DISTINCT_PROFILE=<dir> (the server under node --cpu-prof; lib/cpu-profile.ts cuts it per tenth),
// BENCH_DISTINCT_VERIFY=true (verified mode).
import { runApp, tenths, type AppRun } from './lib/distinct-app-run';
import { plainRead, startDistinctRelay, type PlainReading } from './lib/distinct-relay';
import { loadDistinctStream, type DistinctMeta } from './lib/distinct-stream';
import { formatTop, newestProfile, selfTimes } from './lib/cpu-profile';
import { fmt, median } from './lib/stats';
import type { Tenth } from './lib/distinct-app-run';

const PORT = Number(process.env.BENCH_DISTINCT_PORT ?? 3163);
const MB = 1024 * 1024;

function report(meta: DistinctMeta, run: AppRun, readers: PlainReading[]): number {
  const frames = meta.params.frames;
  const parts = tenths(run.samples, frames);
  const seconds = parts.reduce((sum, t) => sum + t.seconds, 0);
  const rate = frames / seconds;
  const reader = median(readers.map((r) => r.frames / r.seconds));
  const mid = median(parts.map((t) => t.rate));
  const first = run.samples.find((s) => s.seen > 0);
  const last = run.samples.at(-1);
  const cpu = first && last ? (last.cpu - first.cpu) / ((last.at - first.at) / 1000) : Number.NaN;
  console.log(
    `  npm start on Bluesky (PGlite, defaults) through ${frames} distinct frames: ${run.done ? '' : 'NOT DONE, '}` +
      `${fmt(rate, 0)} events/s stored in ${fmt(seconds, 1)} s = ${fmt(rate / reader)}× the plain reader ` +
      `(${fmt(reader, 0)}/s) [goal ≥ 0.25×]; the server process used ${fmt(cpu)} cores, ` +
      `${fmt((((last?.cpu ?? 0) - (first?.cpu ?? 0)) * 1e6) / frames, 0)} µs of CPU a frame`,
  );
  console.log(
    `    per tenth (events/s, × the run's median ${fmt(mid, 0)} [goal ≥ 0.75×], the server's CPU µs a frame, ` +
      `resident MB at its end): ` +
      parts
        .map(
          (t) =>
            `${fmt(t.rate, 0)} (${fmt(t.rate / mid)}×, ${fmt(t.cpuMicros, 0)} µs, ${fmt(t.rss / MB, 0)} MB)`,
        )
        .join(' · '),
  );
  const mb = (t: Tenth, thread: string, kind: 'total' | 'external') =>
    fmt((t.heaps.get(thread)?.[kind] ?? 0) / MB, 0);
  console.log(
    `    each thread's V8 heap at each tenth's end, committed/external MB (serving, database, stream): ` +
      parts
        .map((t) =>
          ['serving', 'database', 'stream']
            .map((thread) => `${mb(t, thread, 'total')}/${mb(t, thread, 'external')}`)
            .join(' '),
        )
        .join(' · '),
  );
  const p99s = run.loop.map((l) => l.p99Ms);
  if (p99s.length)
    console.log(
      `    the server's event-loop delay (its own log, every 2 s): p99 of the windows median ` +
        `${fmt(median(p99s), 0)} ms, worst ${fmt(Math.max(...p99s), 0)} ms, max ${fmt(Math.max(...run.loop.map((l) => l.maxMs)), 0)} ms ` +
        `(each window's p99/max in ms, in order: ${run.loop.map((l) => `${fmt(l.p99Ms, 0)}/${fmt(l.maxMs, 0)}`).join(' ')})`,
    );
  if (run.board)
    console.log(
      `    the board meanwhile (10 connections, GET /api/mana?limit=20&weekly=true): ${fmt(run.board.requestsPerSecond, 0)} req/s, ` +
        `p50 ${run.board.p50} ms, p99 ${run.board.p99} ms [goal < 50 ms], max ${run.board.max} ms, ${run.board.non2xx} non-2xx, ${run.board.errors} errors`,
    );
  const c = run.check;
  if (c)
    console.log(
      `    exactly as planted: ${c.posts.exact}/${c.posts.expected} programme posts and ${c.official.exact}/${c.official.expected} ` +
        `official posts exact; likes ${c.likes.counted}/${c.likes.expected}, reposts ${c.reposts.counted}/${c.reposts.expected} ` +
        `(${meta.earlyLikes} likes before their post); ${c.posts.stored} posts stored, ${c.strays} rows about no planted post` +
        (c.wrong.length ? `; wrong: ${c.wrong.slice(0, 5).join('; ')}` : ''),
    );
  else
    console.log(
      '    not checked against what was planted (BENCH_DISTINCT_CHECK=off, or the run did not finish)',
    );
  return rate / reader;
}

/** The server's own time by function: the whole run, its fastest tenth and its slowest. */
async function profileReport(dir: string, parts: Tenth[]): Promise<void> {
  const profile = await newestProfile(dir);
  const whole = selfTimes(profile);
  console.log(
    `    CPU profile (${dir}), the whole run, ${fmt(whole.total / 1000, 1)} s sampled: ${formatTop(whole.top, 15)}`,
  );
  const ranked = parts.map((t, k) => ({ t, k })).sort((a, b) => b.t.rate - a.t.rate);
  for (const [name, pick] of [
    ['fastest', ranked[0]],
    ['slowest', ranked.at(-1)],
  ] as const) {
    if (!pick) continue;
    const span = selfTimes(profile, pick.t.from, pick.t.to);
    console.log(
      `    ${name} tenth (#${pick.k + 1}, ${fmt(pick.t.rate, 0)} events/s, ${fmt(span.total / 1000, 1)} s sampled): ${formatTop(span.top, 12)}`,
    );
  }
}

export async function distinctStreamBench(): Promise<void> {
  const meta = await loadDistinctStream((line) => console.log(`  ${line}`));
  const p = meta.params;
  console.log(
    `distinct traffic (issue 31): ${p.frames} frames, ${fmt(meta.bytes / p.frames, 0)} bytes a frame on average, ` +
      `~${Math.round(p.frames * p.newShare)} stream accounts + ${meta.planted} planted events by new accounts ` +
      `(${Object.keys(meta.expected).length} programme and official posts); generated in ` +
      `${fmt(meta.generation.ms / 1000, 1)} s with ${meta.generation.workers} worker threads (${meta.createdAt})`,
  );
  const relay = await startDistinctRelay({
    key: meta.key,
    rate: p.networkRate,
    backlog: p.frames,
    fromFirst: true,
  });
  const rounds = Number(process.env.BENCH_DISTINCT_ROUNDS ?? 1);
  const board = Number(process.env.BENCH_DISTINCT_BOARD_SECONDS ?? 0);
  const profileDir = process.env.BENCH_DISTINCT_PROFILE;
  const ratios: number[] = [];
  try {
    let before = await plainRead(relay.url, p.frames);
    for (let round = 0; round < rounds; round++) {
      const run = await runApp(relay, meta, {
        port: PORT,
        timeoutSeconds: Number(process.env.BENCH_DISTINCT_TIMEOUT ?? 900),
        ...(board > 0 ? { boardSeconds: board } : {}),
        ...(profileDir ? { profileDir } : {}),
      });
      // The app's figures first, beside the reader before it: they stand even if the reader after it fails.
      console.log(
        `  round ${round + 1}: plain reader before ${fmt(before.frames / before.seconds, 0)} frames/s ` +
          `(${fmt(before.cpuSeconds / before.seconds)} cores)`,
      );
      ratios.push(report(meta, run, [before]));
      const after = await plainRead(relay.url, p.frames);
      console.log(
        `  round ${round + 1}: plain reader after ${fmt(after.frames / after.seconds, 0)} frames/s ` +
          `(${fmt(after.cpuSeconds / after.seconds)} cores); ratio to the median of both ` +
          `${fmt((ratios.at(-1)! * (before.frames / before.seconds)) / median([before, after].map((r) => r.frames / r.seconds)))}×`,
      );
      if (profileDir) await profileReport(profileDir, tenths(run.samples, p.frames));
      before = after;
    }
    if (rounds > 1)
      console.log(`  median ratio to the plain reader over ${rounds} rounds: ${fmt(median(ratios))}×`);
  } finally {
    await relay.close();
  }
}
