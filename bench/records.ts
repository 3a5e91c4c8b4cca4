// Issue 30's goal for the records page: GET /api/mana/:authorId/records (a post's records, 50 a page) answers in
// p99 < 20 ms with 10 connections, on a post with 100,000 records; measured beside a bare JSON route of the same
// server (bench/lib/records-bench-server.ts), alternating rounds, medians of rounds; with the answer cache (a few
// seconds, as served) and without it (LEADERBOARD_CACHE=off: every answer built from the database).
import { sideBySide } from './lib/side-by-side';
import { startBenchServer } from './lib/spawn-server';
import { benchRounds, fmt } from './lib/stats';

const rounds = benchRounds();
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

export async function recordsBench(kind: 'pglite' | 'postgres'): Promise<void> {
  const env: Record<string, string> =
    kind === 'postgres'
      ? { BENCH_PG_URL: process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' }
      : {};
  for (const cache of ['on', 'off'] as const) await run(kind, cache, env);
}

async function run(kind: 'pglite' | 'postgres', cache: 'on' | 'off', env: Record<string, string>) {
  const server = await startBenchServer(
    { ...env, LEADERBOARD_CACHE: cache },
    'bench/lib/records-bench-server.ts',
  );
  const { postId, authorId, records } = server.ready as { postId: string; authorId: string; records: number };
  const db = `${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, answer cache ${cache}`;
  try {
    for (const page of [1, 100]) {
      const url = `${server.origin}/api/mana/${encodeURIComponent(authorId)}/records?post=${encodeURIComponent(postId)}&page=${page}&limit=50`;
      const r = await sideBySide(url, `${server.origin}/bench/bare`, { rounds, seconds });
      console.log(
        `records page ${page} (50 records of a post with ${records.toLocaleString('en-US')}, ${db}; autocannon 10 connections, ${rounds}×${seconds}s): ` +
          `${fmt(r.ratio)}× bare (${fmt(r.targetRps, 0)} req/s vs bare ${fmt(r.bareRps, 0)} req/s; ` +
          `p50 ${r.targetP50} ms, p99 ${r.targetP99} ms [goal p99 < 20 ms]; the bare route's p99 ${r.bareP99} ms)`,
      );
    }
  } finally {
    await server.stop();
  }
}
