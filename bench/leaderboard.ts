// Benchmark 1 and 4 of the Mana engine (issue 6): GET /api/mana?limit=20&weekly=true and a search by handle
// against a bare JSON route of the same server, with the leaderboard cache on and off, on a seeded database;
// and the server's peak resident memory meanwhile.
import { dropPgSeed, ensureSeeded, label, type BenchDbKind, type SeedSize } from './lib/mana-db';
import { sideBySide } from './lib/side-by-side';
import { handleOfTheWeek, startBenchServer, type BenchServer } from './lib/spawn-server';
import { benchRounds, fmt } from './lib/stats';

const rounds = benchRounds();
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

/** 10k authors / 100k posts on PGlite, 100k / 1M on PostgreSQL (BENCH_<KIND>_AUTHORS / _POSTS to change). */
export function sizeOf(kind: BenchDbKind): SeedSize {
  const prefix = kind === 'pglite' ? 'BENCH_PGLITE' : 'BENCH_PG';
  return {
    authors: Number(process.env[`${prefix}_AUTHORS`] ?? (kind === 'pglite' ? 10_000 : 100_000)),
    posts: Number(process.env[`${prefix}_POSTS`] ?? (kind === 'pglite' ? 100_000 : 1_000_000)),
  };
}

async function peakRss(server: BenchServer): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (m) => resolve((m as { peakRss: number }).peakRss));
    server.child.send('rss');
  });
}

const MB = 1024 * 1024;

export async function leaderboardBench(kind: BenchDbKind): Promise<void> {
  const size = sizeOf(kind);
  const seeded = await ensureSeeded(kind, size);
  const scale = `${label(size.authors)} authors / ${label(size.posts)} posts, ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`;
  const figures: string[] = [];
  try {
    for (const cache of ['on', 'off'] as const) {
      const server = await startBenchServer(
        { BENCH_DB: JSON.stringify(seeded), LEADERBOARD_CACHE: cache },
        'bench/lib/mana-bench-server.ts',
      );
      try {
        const bare = `${server.origin}/bench/bare`;
        const handle = await handleOfTheWeek(server.origin);
        const top = await sideBySide(`${server.origin}/api/mana?limit=20&weekly=true`, bare, {
          rounds,
          seconds,
        });
        const search = await sideBySide(
          `${server.origin}/api/mana?limit=20&weekly=true&search=%40${handle.toUpperCase()}`,
          bare,
          { rounds, seconds },
        );
        const rss = await peakRss(server);
        const line = (what: string, r: typeof top, goal: string) =>
          `leaderboard ${what}, cache ${cache} (${scale}; autocannon 10 connections, ${rounds}×${seconds}s): ` +
          `${fmt(r.ratio)}× bare [goal ${goal}] (${fmt(r.targetRps, 0)} req/s vs bare ${fmt(r.bareRps, 0)} req/s; ` +
          `p50 ${r.targetP50} ms, p99 ${r.targetP99} ms [goal < 25 ms])`;
        const topGoal = cache === 'on' ? '≥ 0.7×' : kind === 'postgres' ? '≥ 0.1×' : 'none on PGlite';
        figures.push(line('GET /api/mana?limit=20&weekly=true', top, topGoal));
        figures.push(line(`search=@${handle.toUpperCase()}`, search, '≥ 0.25×'));
        figures.push(
          `leaderboard server peak RSS, cache ${cache} (${scale}): ${fmt(rss / MB, 0)} MB during the runs above`,
        );
        for (const f of figures.splice(0)) console.log(f);
      } finally {
        await server.stop();
      }
    }
  } finally {
    if (kind === 'postgres' && process.env.BENCH_KEEP !== '1') await dropPgSeed(size);
  }
}
