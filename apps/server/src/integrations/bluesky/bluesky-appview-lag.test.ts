import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshJob } from '../../jobs/refresh.job';
import { readState, saveCursor } from '../../modules/mana/ingest-state.repository';
import { reconciledCount, streamCaughtUp } from '../../modules/mana/reconcile.service';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import type { StreamAuthority } from '../../social/social-network';
import { atprotoNetworkSkipReason } from '../../test/atproto-network';
import { startBlueskyWorld, type BlueskyWorld, type Did, type Ref } from '../../test/bluesky-world';

const reason = atprotoNetworkSkipReason();

/** Longer than the AppView pause below: a post it has not indexed must keep its Mana through the pause. */
const GRACE_MS = 10 * 60_000;
const CAUGHT_UP_MS = 60_000;

describe('one count after a reconciling read (ADR 013)', () => {
  it('takes a reading at least what the stream counted, only while the stream is caught up', () => {
    expect(reconciledCount(3, 3, 5, true)).toBe(5); // the stream missed two (a gap): raised
    expect(reconciledCount(5, 5, 0, true)).toBe(5); // the AppView is behind: never lowered
    expect(reconciledCount(7, 5, 5, true)).toBe(5); // a raise the stream then delivered again: taken back
    expect(reconciledCount(3, 3, 5, false)).toBe(3); // the stream is behind: it will bring them itself
  });
});

/**
 * Issue 25: Bluesky's AppView lags the relay and has outages. With the local AppView's indexer paused
 * (`bsky.sub.stop()`: getPosts answers from what it had indexed) while the stream and the refresh run, no count
 * drops, a post the AppView has not indexed is not deleted, the true numbers come back once it resumes, and
 * nothing is counted twice. A post deleted during a stream gap is deleted after the grace period, only while the
 * stream is caught up.
 */
describe.skipIf(reason)('a lagging AppView on a real local AT Protocol network', () => {
  let w: BlueskyWorld;
  const authority = (): StreamAuthority => ({
    missingGraceMs: GRACE_MS,
    caughtUpMs: CAUGHT_UP_MS,
  });
  let ann: Ref;
  let fresh: Ref;

  beforeAll(async () => {
    w = await startBlueskyWorld(['manahq', 'ann', 'cat', 'fan1', 'fan2', 'fan3', 'fan4', 'fan5', 'fan6'], {
      streamAuthority: { missingGraceMs: GRACE_MS, caughtUpMs: CAUGHT_UP_MS },
    });
  }, 120_000);

  afterAll(async () => {
    await w?.close();
  }, 60_000);

  const row = (id: string) =>
    w.database.db
      .selectFrom('posts')
      .select(['likes', 'replies', 'reposts', 'quotes', 'status', 'final', 'missing_since', 'mana'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const likeRecords = async (id: string) =>
    (
      await w.database.db
        .selectFrom('stream_records')
        .select('id')
        .where('subject_id', '=', id)
        .where('kind', '=', 'like')
        .execute()
    ).length;

  it('through an AppView pause no count drops and an unindexed post keeps its Mana; after it, the true counts, each once', async () => {
    await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date(w.clock.now()));
    await w.reading.stream.start();
    ann = await w.post('ann', 'counting on #ManaBoard');
    w.tally.track(ann.uriStr, 'ann');
    for (const fan of ['fan1', 'fan2', 'fan3', 'fan4', 'fan5']) {
      await w.like(fan, ann);
      w.tally.add(ann.uriStr, 'likes');
    }
    await w.reading.stream.storedThrough(await w.head());
    await w.reconcile();
    await w.expectBoard(false);
    const like = w.rules.weights.like;
    const figures: Record<string, unknown> = {
      before: { annLikes: (await row(ann.uriStr)).likes, board: Object.fromEntries(await w.board()) },
    };

    // The AppView stops indexing; the stream goes on: one more like, and a new programme post with a like.
    await w.net.network.bsky.sub.stop();
    await w.like('fan6', ann);
    w.tally.add(ann.uriStr, 'likes');
    fresh = await w.post('cat', 'new here, #ManaBoard');
    w.tally.track(fresh.uriStr, 'cat');
    await w.like('fan1', fresh);
    w.tally.add(fresh.uriStr, 'likes');
    await w.reading.stream.storedThrough(await w.head());
    const appView = await w.reading.network.readMetrics([ann.uriStr, fresh.uriStr]);
    expect(appView.posts.map((p) => [p.id, p.metrics.likes])).toEqual([[ann.uriStr, 5]]);
    expect(appView.missing.map((m) => m.id)).toEqual([fresh.uriStr]);

    const rounds: unknown[] = [];
    for (let round = 0; round < 3; round++) {
      // The dangerous case: the stream is caught up, so a reading could raise or delete.
      expect(await streamCaughtUp(w.database.db, authority(), new Date(w.clock.now()))).toBe(true);
      const outcome = await w.worker.runJob('refresh');
      await w.worker.runJob('totals');
      const a = await row(ann.uriStr);
      const f = await row(fresh.uriStr);
      expect(a).toMatchObject({ likes: 6, status: 'live' });
      expect(f).toMatchObject({ likes: 1, status: 'live', final: false });
      expect(f.missing_since).toBeInstanceOf(Date);
      expect(outcome?.counts).toMatchObject({ kept: 1, deleted: 0, raised: 0 });
      await w.expectBoard(false);
      rounds.push({
        annLikes: a.likes,
        annMana: (await w.board()).get('ann'),
        unindexed: { status: f.status, likes: f.likes, mana: (await w.board()).get('cat') },
        refresh: outcome?.counts,
      });
    }
    expect((await w.board()).get('ann')).toBe(6 * like);
    expect((await w.board()).get('cat')).toBe(like);
    figures.duringPause = { appViewAnnLikes: 5, appViewUnindexed: 'not found', rounds };

    // The AppView resumes and catches up: the true counts, once each.
    await w.net.network.bsky.sub.start();
    await w.reconcile();
    await w.expectBoard(false);
    expect(await row(ann.uriStr)).toMatchObject({ likes: 6, status: 'live', missing_since: null });
    expect(await row(fresh.uriStr)).toMatchObject({ likes: 1, status: 'live', missing_since: null });
    expect(await likeRecords(ann.uriStr)).toBe(6);
    expect(await likeRecords(fresh.uriStr)).toBe(1);
    figures.after = {
      annLikes: (await row(ann.uriStr)).likes,
      freshLikes: (await row(fresh.uriStr)).likes,
      board: Object.fromEntries(await w.board()),
    };
    console.info(`appview-pause figures: ${JSON.stringify(figures)}`);
  }, 180_000);

  it('a post deleted in a stream gap is deleted after the grace period, and only while the stream is caught up; likes the gap hid are raised', async () => {
    const gone = await w.post('ann', 'soon gone #ManaBoard');
    w.tally.track(gone.uriStr, 'ann');
    await w.like('fan2', gone);
    w.tally.add(gone.uriStr, 'likes');
    await w.reading.stream.storedThrough(await w.head());
    await w.reading.stream.stop();

    // The gap: a deletion and a like the stream never receives (its cursor moves past them, as after a gap).
    await w.sc.deletePost(w.did.ann as Did, gone.uri);
    (w.tally.posts.get(gone.uriStr) as { deleted: boolean }).deleted = true;
    await w.like('fan3', fresh);
    w.tally.add(fresh.uriStr, 'likes');
    await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date(w.clock.now()));
    let reading = w.newReading({ batchSize: 4, flushMs: 100 });
    await reading.stream.start();
    await w.appViewCaughtUp();
    const tick = async () => {
      await w.post('manahq', 'a new day at the board'); // any event moves the stream's cursor to now
      await reading.stream.storedThrough(await w.head());
    };
    await tick();

    // A short grace period for this test (the world's worker keeps the long one).
    const quick = w.newReading({}, { streamAuthority: { missingGraceMs: 1_500, caughtUpMs: CAUGHT_UP_MS } });
    const refresh = () =>
      refreshJob.run({ db: w.database.db, network: quick.network, clock: w.clock, log: w.log });

    // What the raise rests on, checked first so that a failure says which part was missing.
    const seen = await quick.network.readMetrics([fresh.uriStr, gone.uriStr]);
    expect({
      caughtUp: await streamCaughtUp(w.database.db, authority(), new Date(w.clock.now())),
      appView: seen.posts.map((p) => [p.id, p.metrics.likes]),
      missing: seen.missing.map((m) => m.id),
      stored: (await row(fresh.uriStr)).likes,
      streamLikes: await likeRecords(fresh.uriStr),
    }).toEqual({
      caughtUp: true,
      appView: [[fresh.uriStr, 2]],
      missing: [gone.uriStr],
      stored: 1,
      streamLikes: 1,
    });
    let outcome = await refresh();
    expect(outcome.counts).toMatchObject({ deleted: 0, raised: 1 });
    expect(await row(gone.uriStr)).toMatchObject({ status: 'live', likes: 1 });
    expect(await row(fresh.uriStr)).toMatchObject({ likes: 2 }); // raised: the stream never saw fan3's like
    expect(await likeRecords(fresh.uriStr)).toBe(1);

    // The grace period passes while the stream is behind (stopped, its last event long ago): still live.
    await reading.stream.stop();
    const state = await readState(w.database.db, STREAM_JOB);
    const old = new Date(w.clock.now() - 10 * CAUGHT_UP_MS).toISOString();
    await saveCursor(w.database.db, STREAM_JOB, { ...(state?.cursor as object), time: old }, new Date());
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    outcome = await refresh();
    expect(outcome.counts).toMatchObject({ deleted: 0 });
    expect(await row(gone.uriStr)).toMatchObject({ status: 'live' });

    // The stream caught up again: missing for longer than the grace period, the post is deleted.
    reading = w.newReading({ batchSize: 4, flushMs: 100 });
    await reading.stream.start();
    await tick();
    outcome = await refresh();
    expect(outcome.counts).toMatchObject({ deleted: 1 });
    expect(await row(gone.uriStr)).toMatchObject({ status: 'deleted' });
    await w.worker.runJob('totals');
    await w.expectBoard(false);

    // A post deleted by its own event stays deleted while a paused AppView still shows it.
    const brief = await w.post('cat', 'here for a moment #ManaBoard');
    w.tally.track(brief.uriStr, 'cat');
    await reading.stream.storedThrough(await w.head());
    await w.appViewCaughtUp();
    await w.net.network.bsky.sub.stop();
    await w.sc.deletePost(w.did.cat as Did, brief.uri);
    (w.tally.posts.get(brief.uriStr) as { deleted: boolean }).deleted = true;
    await reading.stream.storedThrough(await w.head());
    expect((await w.reading.network.readMetrics([brief.uriStr])).posts).toHaveLength(1);
    await refresh();
    expect(await row(brief.uriStr)).toMatchObject({ status: 'deleted' });
    await w.net.network.bsky.sub.start();
    await w.reconcile();
    await w.expectBoard(false);
    await reading.stream.stop();
  }, 180_000);
});
