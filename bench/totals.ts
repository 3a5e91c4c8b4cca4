// Benchmark 3 of the Mana engine (issue 6): the totals job's incremental recompute after 1,000 changed posts
// against a full rebuild (the `npm run mana:rebuild` path), on a seeded database. Each round changes the
// metrics of 1,000 open posts through the refresh job's own batch (applyMetricsBatch), times the incremental
// recompute, snapshots the board, times a full rebuild, and checks the rebuild found the very same board.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../apps/server/src/db/schema';
import { applyMetricsBatch } from '../apps/server/src/modules/mana/ingest.service';
import { rebuildAllTotals, recomputeDirtyTotals } from '../apps/server/src/modules/mana/totals.service';
import { activeRules } from '../apps/server/src/modules/programme/programme.service';
import type { PostMetrics, SocialPost } from '../apps/server/src/social/social-network';
import { sizeOf } from './leaderboard';
import { dropPgSeed, ensureSeeded, label, openSeeded, type BenchDbKind, type SeededDb } from './lib/mana-db';
import { benchRounds, fmt, median, ratio } from './lib/stats';

const rounds = benchRounds();
const CHANGED = Number(process.env.BENCH_CHANGED_POSTS ?? 1000);

/** A copy of a seeded PGlite directory (the benchmark writes), or the PostgreSQL seed itself. */
async function scratchCopy(seeded: SeededDb): Promise<{ seeded: SeededDb; cleanup: () => Promise<void> }> {
  if (seeded.kind === 'postgres') return { seeded, cleanup: async () => {} };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-totals-'));
  await fs.cp(seeded.dataDir, dir, { recursive: true });
  return {
    seeded: { kind: 'pglite', dataDir: dir },
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

async function snapshot(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<Record<string, unknown>>`
    select period, author_id, mana, posts, likes, replies, reposts, quotes, rank from mana_totals
    order by period, author_id
  `.execute(db);
  return JSON.stringify(rows);
}

/** Changes the metrics of `count` random open posts through the refresh job's batch; returns their authors. */
async function changePosts(db: Kysely<Database>, count: number, round: number, now: Date): Promise<number> {
  const { rules } = await activeRules(db);
  type Row = { id: string; author_id: string; created_at: Date } & PostMetrics;
  const { rows } = await sql<Row>`
    select id, author_id, created_at, likes, replies, reposts, quotes from posts
    where final = false order by md5(id || ${String(round)}) limit ${count}
  `.execute(db);
  if (rows.length < count) throw new Error(`only ${rows.length} open posts to change`);
  const batch = rows.map((r) => ({ id: r.id, authorId: r.author_id, createdAt: r.created_at }));
  // What the network answers for them: a few more likes and a reply each.
  const answer: SocialPost[] = rows.map((r) => ({
    id: r.id,
    authorId: r.author_id,
    text: '',
    createdAt: r.created_at,
    kind: 'original',
    referencedPostId: null,
    conversationId: null,
    metrics: { likes: r.likes + 7, replies: r.replies + 1, reposts: r.reposts, quotes: r.quotes },
  }));
  for (let i = 0; i < batch.length; i += 100) {
    await applyMetricsBatch(
      db,
      rules,
      batch.slice(i, i + 100),
      { posts: answer.slice(i, i + 100), missing: [] },
      { job: 'bench-refresh', value: { round, at: i } },
      now,
    );
  }
  return new Set(rows.map((r) => r.author_id)).size;
}

export async function totalsBench(kind: BenchDbKind): Promise<void> {
  const size = sizeOf(kind);
  const scale = `${label(size.authors)} authors / ${label(size.posts)} posts, ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`;
  const seeded = await ensureSeeded(kind, size);
  const copy = await scratchCopy(seeded);
  const database = await openSeeded(copy.seeded);
  const incremental: number[] = [];
  const rebuild: number[] = [];
  const ratios: number[] = [];
  let authorsChanged = 0;
  try {
    const active = await activeRules(database.db);
    const now = new Date();
    // The seed ended with a full rebuild, so the board is settled: each round starts from an exact board.
    for (let round = 0; round < rounds; round++) {
      authorsChanged = await changePosts(database.db, CHANGED, round, now);
      let started = performance.now();
      await recomputeDirtyTotals(database.db, active, now);
      const inc = performance.now() - started;
      const board = await snapshot(database.db);
      started = performance.now();
      await rebuildAllTotals(database.db, active, now);
      const full = performance.now() - started;
      if ((await snapshot(database.db)) !== board)
        throw new Error('the incremental totals differ from the full rebuild');
      incremental.push(inc);
      rebuild.push(full);
      ratios.push(ratio(inc, full));
      console.log(
        `  [totals] round ${round + 1}: incremental ${fmt(inc, 0)} ms, rebuild ${fmt(full, 0)} ms (boards identical)`,
      );
    }
  } finally {
    await database.close();
    await copy.cleanup();
    if (kind === 'postgres' && process.env.BENCH_KEEP !== '1') await dropPgSeed(size);
  }
  console.log(
    `totals after ${CHANGED} changed posts (${authorsChanged} authors) vs full rebuild (${scale}; median of ${rounds}): ` +
      `${fmt(median(ratios) * 100, 1)}% of the rebuild [goal ≤ 2%] (incremental ${fmt(median(incremental), 0)} ms, ` +
      `rebuild ${fmt(median(rebuild), 0)} ms; the rebuild reproduced the incremental board exactly)`,
  );
}
