import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readState } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import { atprotoNetworkSkipReason } from '../../test/atproto-network';
import { seedStreamScenario } from '../../test/bluesky-reading-seed';
import { startBlueskyWorld, type BlueskyWorld, type Did, type Ref } from '../../test/bluesky-world';

const HOUR = 3_600_000;

/** The local AppView's own Kysely handle, as far as this file uses it. */
type AppViewDb = {
  updateTable: (table: 'post_agg') => {
    set: (values: { likeCount: number }) => {
      where: (column: 'uri', op: '=', value: string) => { execute: () => Promise<unknown> };
    };
  };
};
const reason = atprotoNetworkSkipReason();

/**
 * The stream consumer on a real local AT Protocol network: seeded posts, likes, reposts, quotes, replies and
 * deletions arrive through the PDS's event stream; the board and breakdowns equal the rules applied to what the
 * test seeded (tallied by the test, test/bluesky-world.ts); a restart mid-burst counts nothing twice.
 */
describe.skipIf(reason)('Bluesky reading on a real local AT Protocol network', () => {
  let w: BlueskyWorld;
  const refs: Record<string, Ref> = {};

  beforeAll(async () => {
    w = await startBlueskyWorld([
      'manahq',
      'ann',
      'bob',
      'cat',
      'dan',
      'eve',
      'fan1',
      'fan2',
      'fan3',
      'fan4',
      'fan5',
      'fan6',
    ]);
  }, 120_000);

  afterAll(async () => {
    await w?.close();
  }, 60_000);

  it("picks posts, likes, reposts, quotes and replies up from the stream; the board and breakdowns equal the rules applied to the seeded actions; a linked member's interactions with an official post settle", async () => {
    await seedStreamScenario(w, refs);

    await w.reading.stream.storedThrough(await w.head());
    // Before any reconcile, the stream alone gave every count.
    const stored = await w.database.db
      .selectFrom('posts')
      .select(['id', 'likes', 'replies', 'reposts', 'quotes'])
      .execute();
    expect(
      Object.fromEntries(
        stored.map((p) => [
          p.id,
          { likes: p.likes, replies: p.replies, reposts: p.reposts, quotes: p.quotes },
        ]),
      ),
    ).toEqual(Object.fromEntries([...w.tally.posts].map(([id, p]) => [id, p.counts])));
    const pending = await w.database.db
      .selectFrom('interactions')
      .select(['member_id', 'kind', 'status'])
      .orderBy('kind')
      .execute();
    expect(pending).toEqual([
      { member_id: w.did.dan, kind: 'like', status: 'pending' },
      { member_id: w.did.dan, kind: 'reply', status: 'pending' },
      { member_id: w.did.dan, kind: 'repost', status: 'pending' },
    ]);

    await w.reconcile();
    await w.expectBoard(false);
    // Dan's post line carries the linked multiplier.
    const danLines = (await w.breakdown('dan')).lines;
    expect(danLines.find((l) => l.type === 'post')).toMatchObject({
      multiplier: w.rules.linkedMultiplier,
      likes: 1,
    });

    // 25 hours later the settle job re-checks on the AppView (likes, reposts and replies are public): credited.
    w.time.offset += 25 * HOUR;
    await w.appViewCaughtUp();
    await w.worker.runJob('settle');
    await w.worker.runJob('totals');
    await w.expectBoard(true);
    const lines = (await w.breakdown('dan')).lines.filter((l) => l.type === 'interaction');
    expect(lines.map((l) => [l.kind, l.status, l.mana])).toEqual(
      expect.arrayContaining([
        ['like', 'credited', w.rules.interactionRewards.like],
        ['repost', 'credited', w.rules.interactionRewards.repost],
        ['reply', 'credited', w.rules.interactionRewards.reply],
      ]),
    );
  }, 120_000);

  it('a deleted post stops counting inside its refresh window; a deleted like takes back its count', async () => {
    const eveLike = await w.sc.like(w.did.eve as Did, refs.catQuote as Ref);
    w.tally.add((refs.catQuote as Ref).uriStr, 'likes');
    await w.reading.stream.storedThrough(await w.head());
    await w.sc.deletePost(w.did.bob as Did, (refs.bob as Ref).uri);
    (w.tally.posts.get((refs.bob as Ref).uriStr) as { deleted: boolean }).deleted = true;
    await w.sc.agent.com.atproto.repo.deleteRecord(
      { repo: w.did.eve ?? '', collection: 'app.bsky.feed.like', rkey: eveLike.rkey },
      { headers: w.sc.getHeaders(w.did.eve as Did) },
    );
    w.tally.add((refs.catQuote as Ref).uriStr, 'likes', -1);
    await w.reading.stream.storedThrough(await w.head());
    const bobPost = await w.database.db
      .selectFrom('posts')
      .select(['status', 'final'])
      .where('id', '=', (refs.bob as Ref).uriStr)
      .executeTakeFirstOrThrow();
    expect(bobPost).toEqual({ status: 'deleted', final: false });
    const quote = await w.database.db
      .selectFrom('posts')
      .select('likes')
      .where('id', '=', (refs.catQuote as Ref).uriStr)
      .executeTakeFirstOrThrow();
    expect(quote.likes).toBe(1);
    await w.worker.runJob('totals');
    await w.reconcile();
    await w.expectBoard(true);
    expect((await w.board()).get('bob')).toBe(0);
  }, 120_000);

  it('stopped in the middle of a burst, and failing once, the consumer resumes from its stored cursor and counts nothing twice', async () => {
    await w.reading.stream.stop();
    // Back on the wall clock: the settle test moved the engine 25 h on, and a cursor that old is (rightly) a gap.
    w.time.offset = 0;
    const start = await w.head();
    const ann = refs.ann as Ref;
    const quote = refs.catQuote as Ref;
    for (const who of ['fan1', 'fan2', 'fan3', 'fan4', 'fan5', 'fan6']) {
      await w.like(who, ann);
      w.tally.add(ann.uriStr, 'likes');
      await w.repost(who, quote);
      w.tally.add(quote.uriStr, 'reposts');
    }
    const late = await w.post('fan1', 'late to the #ManaBoard party');
    w.tally.track(late.uriStr, 'fan1');
    for (const who of ['fan2', 'fan3']) {
      await w.like(who, late);
      w.tally.add(late.uriStr, 'likes');
    }
    const end = await w.head();
    const recordsBefore = (await w.database.db.selectFrom('stream_records').select('id').execute()).length;

    // A consumer that stops itself after two stored batches of three events: mid-burst.
    let batches = 0;
    let stopping: Promise<void> | undefined;
    const first = w.newReading({ batchSize: 3, flushMs: 60_000 });
    const original = first.ingest.ingest.bind(first.ingest);
    first.ingest.ingest = async (...args) => {
      const result = await original(...args);
      if (++batches === 2) stopping = first.stream.stop();
      return result;
    };
    await first.stream.start();
    // (a promise is polled by its value, so the count is polled)
    await expect.poll(() => batches, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await stopping;
    const mid = first.stream.cursor.seq ?? 0;
    expect(mid).toBeGreaterThan(start);
    expect(mid).toBeLessThan(end);

    // A new consumer (a new process: nothing in memory) whose first batch fails: it backs off, reads again from
    // the stored cursor, and reaches the end.
    const second = w.newReading({ batchSize: 3, flushMs: 100, maxBackoffMs: 200 });
    const store = second.ingest.ingest.bind(second.ingest);
    let failed = false;
    second.ingest.ingest = async (...args) => {
      if (!failed) {
        failed = true;
        throw new Error('database unavailable (test)');
      }
      return store(...args);
    };
    await second.stream.start();
    await second.stream.storedThrough(end);
    await second.stream.stop();
    expect(failed).toBe(true);
    const state = await readState(w.database.db, STREAM_JOB);
    expect(state?.last_error).toContain('database unavailable (test)');
    expect((state?.cursor as { seq?: number }).seq).toBe(end);

    // Counted once each: 6 likes + 6 reposts + 2 likes on tracked posts.
    const recordsAfter = (await w.database.db.selectFrom('stream_records').select('id').execute()).length;
    expect(recordsAfter - recordsBefore).toBe(14);
    const stored = await w.database.db
      .selectFrom('posts')
      .select(['id', 'likes', 'reposts'])
      .where('id', 'in', [ann.uriStr, quote.uriStr, late.uriStr])
      .execute();
    for (const p of stored) {
      const counts = w.tally.posts.get(p.id)?.counts;
      expect({ likes: p.likes, reposts: p.reposts }).toEqual({
        likes: counts?.likes,
        reposts: counts?.reposts,
      });
    }
    await w.reconcile();
    await w.expectBoard(true);

    // A day later than the relay keeps: the consumer reports the gap (log and ingest_state) and reads on.
    w.time.offset = 25 * HOUR;
    const third = w.newReading();
    await third.stream.start();
    await third.stream.stop();
    expect((await readState(w.database.db, STREAM_JOB))?.last_error).toMatch(
      /^gap: the stream stopped at .*no app account .*only known posts heal via getPosts/,
    );
  }, 120_000);

  it("waiting for the AppView repairs a count its own aggregate race lost (test support's wait, not the product)", async () => {
    const ann = refs.ann as Ref;
    await w.appViewCaughtUp();
    // As when two of the AppView's background count updates crossed: one like short, and no later change to heal it.
    const appview = (w.net.network.bsky as unknown as { db: { db: AppViewDb } }).db.db;
    const likes = w.tally.posts.get(ann.uriStr)?.counts.likes ?? 0;
    expect(likes).toBeGreaterThan(0);
    await appview
      .updateTable('post_agg')
      .set({ likeCount: likes - 1 })
      .where('uri', '=', ann.uriStr)
      .execute();
    const short = await w.reading.network.readMetrics([ann.uriStr]);
    expect(short.posts[0]?.metrics.likes).toBe(likes - 1);
    await w.appViewCaughtUp();
    const healed = await w.reading.network.readMetrics([ann.uriStr]);
    expect(healed.posts[0]?.metrics.likes).toBe(likes);
  }, 120_000);
});
