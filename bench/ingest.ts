// Benchmark 2 of the Mana engine (issue 6): the worker's ingest of ~100k tracked posts from the simulated X
// (limits off, its own process) through the real search job, X client and ingest service, against a bare
// batched `INSERT … ON CONFLICT` of the very same author and post rows into a fresh database of the same kind:
// in batches of one search page (100 rows, the unit the worker stores: the goal's figure) and, for reference,
// of 1,000 rows.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { systemClock } from '../apps/server/src/integrations/x/clock';
import type { XConfig } from '../apps/server/src/config/config';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import type { Database } from '../apps/server/src/db/schema';
import { createXClient } from '../apps/server/src/integrations/x/x-client';
import { searchJob } from '../apps/server/src/jobs/search.job';
import { readState } from '../apps/server/src/modules/mana/ingest-state.repository';
import { activeRules } from '../apps/server/src/modules/programme/programme.service';
import { startBenchServer } from './lib/spawn-server';
import { benchRounds, fmt, median, ratio } from './lib/stats';

const rounds = benchRounds();
/** Members of the simulated world: ~7 tracked posts each (BENCH_INGEST_MEMBERS to change the size). */
const members = Number(process.env.BENCH_INGEST_MEMBERS ?? 13_700);
/** Rows per bare statement: a search page (what the worker stores at a time), and a larger batch. */
const PAGE_BATCH = 100;
const BIG_BATCH = 1000;

async function freshPglite(): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-ingest-'));
  const handle = await openDatabase({ kind: 'pglite', dataDir: dir });
  await migrateToLatest(handle.db);
  await activeRules(handle.db);
  return {
    handle,
    cleanup: async () => {
      await handle.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The worker's way: search job runs (50 pages of 100 each) until it has caught up with the world. */
async function workerIngest(
  db: Kysely<Database>,
  origin: string,
): Promise<{ ms: number; calls: number; networkMs: number }> {
  const config: XConfig = {
    mode: 'simulated',
    clientId: 'bench',
    clientSecret: 'bench',
    bearerToken: 'bench',
    apiBaseUrl: origin,
    authorizeUrl: `${origin}/i/oauth2/authorize`,
    tokenUrl: `${origin}/2/oauth2/token`,
    revokeUrl: `${origin}/2/oauth2/revoke`,
    scopes: ['tweet.read', 'users.read'],
    monthlyReadCap: undefined,
    requestTimeoutMs: 30_000,
    postUrlBase: origin,
  };
  const x = createXClient(config, db, { clock: systemClock });
  // Time spent waiting on the simulated X (its own process), to tell the network from the worker's own work.
  let networkMs = 0;
  const network = Object.assign(Object.create(x.network) as typeof x.network, {
    findPosts: async (...args: Parameters<typeof x.network.findPosts>) => {
      const started = performance.now();
      try {
        return await x.network.findPosts(...args);
      } finally {
        networkMs += performance.now() - started;
      }
    },
  });
  const context = { db, network, clock: systemClock, log: pino({ level: 'silent' }) };
  const started = performance.now();
  let calls = 0;
  for (;;) {
    calls += (await searchJob.run(context)).calls;
    const cursor = (await readState(db, 'search'))?.cursor as { run?: unknown } | undefined;
    if (!cursor?.run) break;
  }
  return { ms: performance.now() - started, calls, networkMs };
}

type Rows = { authors: Array<Record<string, unknown>>; posts: Array<Record<string, unknown>> };

async function storedRows(db: Kysely<Database>): Promise<Rows> {
  const authors = await db
    .selectFrom('authors')
    .select(['id', 'handle', 'display_name', 'avatar_url', 'first_tracked_at', 'updated_at'])
    .execute();
  const posts = await db
    .selectFrom('posts')
    .select([
      'id',
      'author_id',
      'text',
      'created_at',
      'kind',
      'likes',
      'replies',
      'reposts',
      'quotes',
      'first_seen_at',
      'refreshed_at',
    ])
    .execute();
  return { authors, posts };
}

/** The bare way: the same rows, `batch` a statement, `INSERT … ON CONFLICT DO UPDATE`, nothing else. */
async function bareInsert(db: Kysely<Database>, rows: Rows, batch: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < rows.authors.length; i += batch) {
    await db
      .insertInto('authors')
      .values(rows.authors.slice(i, i + batch) as never)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          handle: eb.ref('excluded.handle'),
          display_name: eb.ref('excluded.display_name'),
          avatar_url: eb.ref('excluded.avatar_url'),
        })),
      )
      .execute();
  }
  for (let i = 0; i < rows.posts.length; i += batch) {
    await db
      .insertInto('posts')
      .values(rows.posts.slice(i, i + batch) as never)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          likes: eb.ref('excluded.likes'),
          replies: eb.ref('excluded.replies'),
          reposts: eb.ref('excluded.reposts'),
          quotes: eb.ref('excluded.quotes'),
        })),
      )
      .execute();
  }
  return performance.now() - started;
}

export async function ingestBench(): Promise<void> {
  const sim = await startBenchServer({ SIM_MEMBERS: String(members) }, 'bench/lib/sim-bench-server.ts');
  const simPosts = (sim.ready as { posts: number }).posts;
  const workerMs: number[] = [];
  const networkMs: number[] = [];
  const bare = { page: [] as number[], big: [] as number[] };
  const ratios = { page: [] as number[], big: [] as number[] };
  let stored = 0;
  let calls = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const worker = await freshPglite();
      try {
        const run = await workerIngest(worker.handle.db, sim.origin);
        const rows = await storedRows(worker.handle.db);
        stored = rows.posts.length;
        calls = run.calls;
        workerMs.push(run.ms);
        networkMs.push(run.networkMs);
        for (const [kind, batch] of [
          ['page', PAGE_BATCH],
          ['big', BIG_BATCH],
        ] as const) {
          const target = await freshPglite();
          try {
            const ms = await bareInsert(target.handle.db, rows, batch);
            const { rows: check } = await sql<{ n: string }>`select count(*) as n from posts`.execute(
              target.handle.db,
            );
            if (Number(check[0]?.n) !== rows.posts.length) throw new Error('the bare insert lost rows');
            bare[kind].push(ms);
            ratios[kind].push(ratio(ms, run.ms));
          } finally {
            await target.cleanup();
          }
        }
        console.log(
          `  [ingest] round ${round + 1}: worker ${fmt(run.ms / 1000, 1)} s (${run.calls} X calls, ${fmt(run.networkMs / 1000, 1)} s of it waiting on the simulated X); ` +
            `bare ${fmt((bare.page.at(-1) ?? 0) / 1000, 1)} s in ${PAGE_BATCH}-row statements, ${fmt((bare.big.at(-1) ?? 0) / 1000, 1)} s in ${BIG_BATCH}-row ones`,
        );
      } finally {
        await worker.cleanup();
      }
    }
  } finally {
    await sim.stop();
  }
  const perSecond = (ms: number) => fmt(stored / (ms / 1000), 0);
  console.log(
    `worker ingest of ${stored} tracked posts (of ${simPosts} in the simulated X, limits off; search job, ${calls} calls, PGlite; median of ${rounds}) ` +
      `vs bare batched INSERT … ON CONFLICT of the same rows: ${fmt(median(ratios.page))}× bare in page-sized (${PAGE_BATCH}-row) statements [goal ≥ 0.5×], ` +
      `${fmt(median(ratios.big))}× bare in ${BIG_BATCH}-row statements (worker ${fmt(median(workerMs) / 1000, 1)} s = ${perSecond(median(workerMs))} posts/s, ` +
      `${fmt(median(networkMs) / 1000, 1)} s of it waiting on the simulated X; bare ${fmt(median(bare.page) / 1000, 1)} s = ${perSecond(median(bare.page))} posts/s ` +
      `and ${fmt(median(bare.big) / 1000, 1)} s = ${perSecond(median(bare.big))} posts/s)`,
  );
}
