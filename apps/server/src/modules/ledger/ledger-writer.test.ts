import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../config/test-env';
import type { DatabaseHandle } from '../../db/database';
import type { Db } from '../../db/schema';
import { checkLedger } from '../../test/ledger-check';
import { insertLedgerWorld, ledgerWorld, WORLD_WEEK } from '../../test/ledger-world';
import { openTestDatabase } from '../../test/test-database';
import { applyMetrics } from '../mana/posts.repository';
import { weekKey } from '../mana/scoring';
import { recomputeDirtyTotals } from '../mana/totals.service';
import { activeRules } from '../programme/programme.service';
import { createHash } from 'node:crypto';
import { ensureRefereeSalt, REFEREE_SALT_SECRET } from './ledger-read.repository';
import { inSnapshot } from './ledger-snapshot';
import { ledgerText, type LedgerPlan } from './ledger-writer';

async function textOf(pieces: AsyncIterable<Buffer>): Promise<string> {
  const all: Buffer[] = [];
  for await (const piece of pieces) all.push(piece);
  return Buffer.concat(all).toString('utf8');
}

async function clearWorld(db: Db): Promise<void> {
  for (const table of [
    'stream_records',
    'post_metric_changes',
    'posts',
    'interactions',
    'referrals',
    'browser_links',
    'accounts',
    'mana_totals',
    'authors',
    'programme_rules',
    'ingest_state',
  ] as const)
    await db.deleteFrom(table).execute();
}

const plan: LedgerPlan = {
  week: WORLD_WEEK,
  network: 'bluesky',
  state: 'closed',
  closedAt: new Date('2026-10-20T04:00:00.000Z'),
  edition: 1,
  activeVersion: 2,
};

describe('the weekly ledger of random worlds', () => {
  let databases: DatabaseHandle[] = [];
  beforeAll(async () => {
    databases = [await openTestDatabase('pglite')];
    if (testEnv.databaseUrl) databases.push(await openTestDatabase('postgres'));
  }, 60_000);
  afterAll(async () => {
    for (const d of databases) await d.close();
  });

  it('is one document for one board: built twice, paged or not, on PGlite and PostgreSQL, and reads as the format says', async () => {
    await fc.assert(
      fc.asyncProperty(ledgerWorld, async (world) => {
        const texts: string[] = [];
        for (const { db, kind } of databases) {
          await clearWorld(db);
          await insertLedgerWorld(db, world);
          // One deployment's secret on both databases (as after a move from one to the other): the referee
          // commitments are salted with it, so two deployments' ledgers differ there, and only there.
          await db
            .insertInto('server_secrets')
            .values({ name: REFEREE_SALT_SECRET, value: 'one-deployment-salt' })
            .onConflict((oc) => oc.column('name').doUpdateSet({ value: 'one-deployment-salt' }))
            .execute();
          await ensureRefereeSalt(db);
          const text = await textOf(inSnapshot(db, kind, (readers) => ledgerText(readers, plan)));
          expect(await textOf(ledgerText(db, plan))).toBe(text);
          // Records a page of two at a time: the keyset path a post with thousands of records takes, and many
          // groups, read in turn by the snapshot's readers (two connections on PostgreSQL) or by one.
          expect(await textOf(ledgerText(db, { ...plan, recordPage: 2 }))).toBe(text);
          const paged = { ...plan, recordPage: 2 };
          expect(await textOf(inSnapshot(db, kind, (readers) => ledgerText(readers, paged)))).toBe(text);
          expect(await textOf(inSnapshot(db, kind, (readers) => ledgerText(readers, paged), 3))).toBe(text);
          texts.push(text);

          const checked = checkLedger(text);
          // Every member's Mana is the engine's own weekly total (mana_totals, what the board shows).
          const board = await db
            .selectFrom('mana_totals')
            .select(['author_id', 'mana'])
            .where('period', '=', weekKey(WORLD_WEEK.from))
            .execute();
          expect(new Map([...checked.members].map(([author, m]) => [author, m.mana]))).toEqual(
            new Map(board.map((r) => [r.author_id, r.mana])),
          );
        }
        for (const text of texts.slice(1)) expect(text).toBe(texts[0]);
      }),
      { numRuns: testEnv.databaseUrl ? 12 : 20 },
    );
  }, 240_000);

  it("the open week's post lines follow the counts it lists as it is built, not the last totals run: the same document before and after that run, and the board's after it", async () => {
    const open: LedgerPlan = { ...plan, state: 'open', closedAt: null };
    await fc.assert(
      fc.asyncProperty(
        ledgerWorld,
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }),
        async (world, more) => {
          for (const { db, kind } of databases) {
            await clearWorld(db);
            await insertLedgerWorld(db, world);
            await ensureRefereeSalt(db);
            await ensureRefereeSalt(db);
            // The stream counts more likes on open live posts: their rows move now, their Mana at the next
            // totals run (a queued per-post change, as the stream's and the refresh's metrics are).
            const open_ = await db
              .selectFrom('posts')
              .select(['id', 'likes', 'replies', 'reposts', 'quotes'])
              .where('final', '=', false)
              .where('status', '=', 'live')
              .orderBy('id')
              .execute();
            const moved = open_.slice(0, more.length).map((p, i) => ({
              ...p,
              likes: p.likes + (more[i] ?? 1),
              final: false,
            }));
            expect(await applyMetrics(db, moved, WORLD_WEEK.to)).toEqual([]);
            const before = await textOf(inSnapshot(db, kind, (readers) => ledgerText(readers, open)));
            const checked = checkLedger(before);
            await recomputeDirtyTotals(db, await activeRules(db), new Date(WORLD_WEEK.to.getTime() + 60_000));
            expect(await textOf(inSnapshot(db, kind, (readers) => ledgerText(readers, open)))).toBe(before);
            const board = await db
              .selectFrom('mana_totals')
              .select(['author_id', 'mana'])
              .where('period', '=', weekKey(WORLD_WEEK.from))
              .execute();
            expect(new Map([...checked.members].map(([author, m]) => [author, m.mana]))).toEqual(
              new Map(board.map((r) => [r.author_id, r.mana])),
            );
          }
        },
      ),
      { numRuns: testEnv.databaseUrl ? 8 : 15 },
    );
  }, 240_000);

  it('names each referee by a salted commitment, not its network id, which the programme can open one line at a time', async () => {
    const { db } = databases[0]!;
    await clearWorld(db);
    const world = fc.sample(ledgerWorld, { numRuns: 1, seed: 30 })[0]!;
    world.members = [
      {
        linked: true,
        linkedAtHour: 0,
        disqualified: false,
        posts: [],
        referrals: [
          { hour: 10, counts: true },
          { hour: 20, counts: true },
        ],
        interactions: [],
      },
    ];
    await insertLedgerWorld(db, world);
    await ensureRefereeSalt(db);
    const text = await textOf(ledgerText(db, plan));
    checkLedger(text);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; referee?: string });
    const referrals = lines.filter((l) => l.type === 'referral');
    expect(referrals).toHaveLength(2);
    const rows = await db
      .selectFrom('referrals as r')
      .innerJoin('accounts as ree', 'ree.id', 'r.referee_account_id')
      .select(['r.id', 'ree.network_user_id'])
      .execute();
    const secret = await db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', REFEREE_SALT_SECRET)
      .executeTakeFirstOrThrow();
    const hex = (s: string) => createHash('sha256').update(s).digest('hex');
    // Opening a line: its salt (from the secret and the referral) and the referee give its commitment.
    const opened = rows.map((r) => `sha256:${hex(`${hex(`${secret.value} ${r.id}`)} ${r.network_user_id}`)}`);
    expect(referrals.map((l) => l.referee).sort()).toEqual(opened.sort());
    for (const r of rows) expect(text).not.toContain(r.network_user_id);
  });
});

describe.runIf(testEnv.databaseUrl)('the snapshot a ledger is read in, on PostgreSQL', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  }, 60_000);
  afterAll(async () => {
    await database.close();
  });

  it("gives every reader the first one's snapshot: a write committed after it began is seen by none of them", async () => {
    const { db } = database;
    await clearWorld(db);
    const names = async (reader: Db) =>
      (await reader.selectFrom('authors').select('id').orderBy('id').execute()).map((r) => r.id);
    const author = (id: string) => ({
      id,
      handle: `${id.slice('did:plc:'.length)}.test`,
      display_name: id,
      avatar_url: null,
      first_tracked_at: new Date('2026-10-01T00:00:00.000Z'),
      updated_at: new Date('2026-10-01T00:00:00.000Z'),
    });
    await db.insertInto('authors').values(author('did:plc:before')).execute();
    const seen: string[][] = [];
    for await (const step of inSnapshot(
      db,
      'postgres',
      async function* (readers) {
        expect(readers).toHaveLength(3);
        seen.push(await names(readers[0]));
        yield 'first read';
        // Committed now, between the first reader's reads and the others' first ones.
        for (const reader of readers.slice(1)) seen.push(await names(reader));
      },
      3,
    )) {
      if (step === 'first read') await db.insertInto('authors').values(author('did:plc:after')).execute();
    }
    expect(seen).toEqual([['did:plc:before'], ['did:plc:before'], ['did:plc:before']]);
    expect(await names(db)).toEqual(['did:plc:after', 'did:plc:before']);
  });

  const pid = async (reader: Db) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(reader)).rows[0]!.pid;
  const stateOf = async (backend: number) =>
    (
      await sql<{ state: string }>`select state from pg_stat_activity where pid = ${backend}`.execute(
        database.db,
      )
    ).rows[0]?.state ?? 'gone';

  it("gives every other connection back when one reader's connection dies mid-build", async () => {
    const { db } = database;
    let backends: number[] = [];
    const build = inSnapshot(db, 'postgres', async function* (readers) {
      backends = [await pid(readers[0]), await pid(readers[1]!)];
      yield 'reading';
      await sql`select pg_terminate_backend(${backends[1]!})`.execute(db);
      await pid(readers[1]!); // the dead connection's next read fails, and the build with it
    });
    await expect(async () => {
      for await (const step of build) expect(step).toBe('reading');
    }).rejects.toThrow();
    // Back in the pool (idle, or answering this very query), not left in its transaction.
    expect(['idle', 'active']).toContain(await stateOf(backends[0]!));
    expect(await stateOf(backends[1]!)).toBe('gone');
  });

  it('reads on one connection while two other builds read on several, so waiting builds never hold the pool', async () => {
    const { db } = database;
    const counts: number[] = [];
    const builds = [0, 1, 2].map(() =>
      inSnapshot(db, 'postgres', async function* (readers) {
        counts.push(readers.length);
        yield readers.length;
      }),
    );
    for (const build of builds) await build.next();
    expect(counts).toEqual([2, 2, 1]);
    for (const build of builds) await build.return(undefined);
    // The slots are given back: the next build reads on two again.
    const again = inSnapshot(db, 'postgres', async function* (readers) {
      yield readers.length;
    });
    expect((await again.next()).value).toBe(2);
    await again.return(undefined);
  });
});
