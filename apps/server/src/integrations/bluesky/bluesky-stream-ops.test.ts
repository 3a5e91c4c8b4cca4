import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readState, saveCursor } from '../../modules/mana/ingest-state.repository';
import { upsertAccount } from '../../modules/linking/accounts.repository';
import { Sealed } from '../../config/sealed';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import { atprotoNetworkSkipReason } from '../../test/atproto-network';
import { startBlueskyWorld, type BlueskyWorld, type Did } from '../../test/bluesky-world';
import { createWorkerRuntime } from '../../composition/worker-runtime';
import { GAP_JOB } from '../../jobs/stream-gap';
import { RELAY_REPLAY_MS } from './bluesky-facts';
import { storedStreamReading } from '../../modules/stream-progress/stream-progress.service';

const HOUR = 3_600_000;

const reason = atprotoNetworkSkipReason();

/** How the consumer runs beside the worker, on a real local AT Protocol network. */
describe.skipIf(reason)('the Bluesky stream in operation', () => {
  let w: BlueskyWorld;

  beforeAll(async () => {
    w = await startBlueskyWorld(['manahq', 'ann', 'eve', 'searcher']);
  }, 120_000);

  afterAll(async () => {
    await w?.close();
  }, 60_000);

  it('with SOCIAL_NETWORK=bluesky the worker leader runs the consumer, and stopping the worker stops it', async () => {
    w.time.offset = 0;
    const config = w.workerConfig();
    await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date());
    const runtime = await createWorkerRuntime({ config, database: w.database, log: w.log });
    expect(runtime.worker.uses('search')).toBe(false);
    expect(runtime.worker.uses('refresh')).toBe(true);
    await runtime.start();
    try {
      expect(runtime.worker.isLeader).toBe(true);
      const seen = await w.post('eve', 'the worker reads #ManaBoard too');
      await expect
        .poll(
          async () =>
            (await w.database.db.selectFrom('posts').select('id').where('id', '=', seen.uriStr).execute())
              .length,
          { timeout: 30_000 },
        )
        .toBe(1);
    } finally {
      await runtime.stop();
    }
    // The leader reported the stream's progress; its last report, stored when it stepped down, any process reads.
    const progress = await storedStreamReading(w.database.db, new Date());
    expect(progress?.storedPerSecond).toBeGreaterThan(0);
    expect(progress?.seenPerSecond).toBeGreaterThanOrEqual(progress?.storedPerSecond ?? Infinity);
    expect(progress?.replayWindowSeconds).toBe(RELAY_REPLAY_MS / 1000);
    expect(progress?.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(progress?.lagSeconds).toBeLessThan(120);
    const unseen = await w.post('eve', 'written while no worker leads #ManaBoard');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(
      await w.database.db.selectFrom('posts').select('id').where('id', '=', unseen.uriStr).execute(),
    ).toEqual([]);
  }, 120_000);

  it("a gap longer than the relay keeps is filled from authenticated search with the app account: the programme's posts written in the gap are tracked once, through the stream's ingest, after a rate limit", async () => {
    await w.reading.stream.stop();
    const tracked = async () =>
      new Set((await w.database.db.selectFrom('posts').select('id').execute()).map((r) => r.id));
    const before = await w.post('ann', 'written before the gap #ManaBoard');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stoppedAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Written while no consumer ran: the stream resumes after them (its cursor is the head), only search finds them.
    const inGap = [
      await w.post('ann', 'first #ManaBoard post in the gap'),
      await w.post('eve', 'second #ManaBoard post in the gap'),
      await w.post('ann', 'third #ManaBoard post in the gap'),
      await w.post('eve', 'a keyword only: manaboard rocks'),
      await w.post('ann', 'hello @manahq.test', { mention: 'manahq.test' }),
    ];
    const offTopic = await w.post('eve', 'nothing about the programme');
    const reply = await w.reply('eve', inGap[0]!, 'a reply with #ManaBoard is never tracked');
    await saveCursor(
      w.database.db,
      STREAM_JOB,
      { seq: await w.head(), time: stoppedAt.toISOString() },
      stoppedAt,
    );
    // Brought by the stream (after the cursor) and found by the search: tracked once.
    const both = await w.post('eve', 'after the cursor #ManaBoard');
    await w.appViewCaughtUp();

    // The search answers 429 once (with the wait it names): the fill waits and goes on.
    let limited = 0;
    const gapFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('app.bsky.feed.searchPosts') && limited === 0) {
        limited++;
        return new Response(JSON.stringify({ error: 'RateLimitExceeded', message: 'slow down' }), {
          status: 429,
          headers: {
            'content-type': 'application/json',
            'ratelimit-reset': String(Math.ceil(Date.now() / 1000)),
          },
        });
      }
      return fetch(input, init);
    };
    w.time.offset = 25 * HOUR; // the stored cursor is now older than the relay replays
    const reading = w.newReading(
      { batchSize: 4, flushMs: 100 },
      {
        appAccount: {
          handle: 'searcher.test',
          password: new Sealed('searcher-password'),
          service: w.net.pdsUrl,
        },
      },
      { fetch: gapFetch, pageLimit: 2 },
    );
    try {
      await reading.stream.start();
      const result = (await reading.stream.gapFilled) as { calls: number; found: number; tracked: number };
      await reading.stream.storedThrough(await w.head());
      expect(limited).toBe(1);
      const ids = await tracked();
      for (const p of [...inGap, both]) expect(ids.has(p.uriStr)).toBe(true);
      for (const p of [before, offTopic, reply]) expect(ids.has(p.uriStr)).toBe(false);
      // Pages of two: the hashtag's four posts in the window take more than one page.
      expect(result.calls).toBeGreaterThan(1 + 4);
      expect(result.tracked).toBeGreaterThanOrEqual(5);
      const gap = await readState(w.database.db, GAP_JOB);
      expect(gap?.cursor).toEqual({ filledThrough: expect.any(String) });
      expect(gap?.last_error ?? null).toBeNull();
      expect((await readState(w.database.db, STREAM_JOB))?.last_error).toMatch(
        /^gap: the stream stopped at .*searched for with the app account/,
      );
      // Tracked once each, whichever way it came.
      const rows = await w.database.db
        .selectFrom('posts')
        .select('id')
        .where('id', '=', both.uriStr)
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await reading.stream.stop();
      w.time.offset = 0;
    }
  }, 120_000);

  it("a handle changed at the member's PDS reaches the stream as an identity event: the same member and author are renamed, never duplicated; an official account under its own domain is named by its full handle", async () => {
    await w.reading.stream.stop();
    const did = w.did.ann ?? '';
    const now = new Date(w.clock.now());
    const account = await upsertAccount(w.database.db, {
      networkUserId: did,
      handle: 'ann.test',
      avatarUrl: null,
      networkCreatedAt: null,
      followers: 100,
      sealedAccessToken: 'sealed',
      sealedRefreshToken: null,
      tokenExpiresAt: new Date(now.getTime() + HOUR),
      scopes: 'atproto',
      now,
    });
    await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, now);
    const reading = w.newReading({ batchSize: 4, flushMs: 100 }, { handleResolverUrl: w.net.pdsUrl });
    try {
      await reading.stream.start();
      const post = await w.post('ann', 'before my new name #ManaBoard');
      await reading.stream.storedThrough(await w.head());
      const author = () =>
        w.database.db.selectFrom('authors').select(['id', 'handle']).where('id', '=', did).executeTakeFirst();
      expect(await author()).toEqual({ id: did, handle: 'ann.test' });

      await w.sc.agent.com.atproto.identity.updateHandle(
        { handle: 'ann-renamed.test' },
        { headers: w.sc.getHeaders(did as Did), encoding: 'application/json' },
      );
      // The app account is not known to the programme: her new handle renames nobody and creates nobody.
      await w.sc.agent.com.atproto.identity.updateHandle(
        { handle: 'searcher-renamed.test' },
        { headers: w.sc.getHeaders(w.did.searcher as Did), encoding: 'application/json' },
      );
      await reading.stream.storedThrough(await w.head());
      expect(await author()).toEqual({ id: did, handle: 'ann-renamed.test' });
      const accounts = await w.database.db
        .selectFrom('accounts')
        .select(['id', 'handle'])
        .where('network_user_id', '=', did)
        .execute();
      expect(accounts).toEqual([{ id: account.id, handle: 'ann-renamed.test' }]);
      expect(
        await w.database.db
          .selectFrom('authors')
          .select('id')
          .where('id', '=', w.did.searcher ?? '')
          .execute(),
      ).toEqual([]);
      // The post keeps its author; the board shows the new name.
      const row = await w.database.db
        .selectFrom('posts')
        .select('author_id')
        .where('id', '=', post.uriStr)
        .executeTakeFirstOrThrow();
      expect(row.author_id).toBe(did);
      await w.worker.runJob('totals');
      expect([...(await w.board()).keys()]).toContain('ann-renamed');

      // An official account under its own domain (here the local network's `.test`), named by its full handle.
      const officials = await reading.ingest.officialIds(
        { ...w.rules, officialHandles: ['manahq.test'] },
        1_000,
      );
      expect([...officials]).toEqual([w.did.manahq]);
    } finally {
      await reading.stream.stop();
    }
  }, 120_000);
});
