import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedClient } from '@atproto/dev-env';
import { breakdownResponseSchema, manaResponseSchema, type ProgrammeRules } from '@manaboard/contract';
import { buildApp } from '../../app';
import type { Clock } from '../../clock';
import { loadConfig } from '../../config/config';
import type { DatabaseHandle } from '../../db/database';
import { Worker } from '../../jobs/worker';
import { hashBrowserId } from '../../modules/identity/browser-id';
import { bindBrowser, upsertAccount } from '../../modules/linking/accounts.repository';
import { readState, saveCursor } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import { readRulesFile, saveRules } from '../../modules/programme/programme.service';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../../test/atproto-network';
import { openTestDatabase } from '../../test/test-database';
import { createWorkerRuntime } from '../../worker-runtime';
import { BLUESKY_JOBS, createBlueskyReading } from './bluesky-reading';

const HOUR = 3_600_000;
const reason = atprotoNetworkSkipReason();

type Did = `did:${string}:${string}`;
type Ref = SeedClientRef;
type SeedClientRef = Awaited<ReturnType<SeedClient['post']>>['ref'];
type Counts = { likes: number; replies: number; reposts: number; quotes: number };

/**
 * The seeded world as the test itself tallies it: who wrote which tracked post and every like, reply, repost and
 * quote it got, and the linked members' interactions with official posts. The expected Mana is computed from
 * this and the programme's rules, never read back from the engine.
 */
class Tally {
  readonly posts = new Map<string, { author: string; counts: Counts; linked: boolean; deleted: boolean }>();
  readonly interactions: Array<{ member: string; kind: 'like' | 'reply' | 'repost' }> = [];

  track(uri: string, author: string, linked = false) {
    this.posts.set(uri, {
      author,
      counts: { likes: 0, replies: 0, reposts: 0, quotes: 0 },
      linked,
      deleted: false,
    });
  }

  add(uri: string, metric: keyof Counts, by = 1) {
    const post = this.posts.get(uri);
    if (post) post.counts[metric] += by;
  }

  /** Mana per author handle: Σ multiplier × weighted counts of live posts, plus credited interactions. */
  expected(rules: ProgrammeRules, withInteractions: boolean): Map<string, number> {
    const mana = new Map<string, number>();
    const w = rules.weights;
    for (const post of this.posts.values()) {
      const c = post.counts;
      const value = post.deleted
        ? 0
        : (post.linked ? rules.linkedMultiplier : 1) *
          (c.likes * w.like + c.replies * w.reply + c.reposts * w.repost + c.quotes * w.quote);
      mana.set(post.author, (mana.get(post.author) ?? 0) + value);
    }
    if (withInteractions) {
      for (const i of this.interactions)
        mana.set(i.member, (mana.get(i.member) ?? 0) + rules.interactionRewards[i.kind]);
    }
    return mana;
  }
}

describe.skipIf(reason)('Bluesky reading on a real local AT Protocol network', () => {
  let net: LocalAtprotoNetwork;
  let sc: SeedClient;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let worker: Worker;
  let rules: ProgrammeRules;
  let offset = 0;
  const clock: Clock = {
    now: () => Date.now() + offset,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
  const log = pino({ level: process.env.BSKY_TEST_LOG ?? 'silent' });
  const tally = new Tally();
  const did: Record<string, string> = {};
  const handles = [
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
  ];
  let reading: ReturnType<typeof createBlueskyReading>;
  const refs: Record<string, Ref> = {};

  const blueskyConfig = () => ({
    appviewUrl: net.appviewUrl,
    plcUrl: net.plcUrl,
    relayUrl: net.streamUrl,
    handleResolverUrl: undefined,
    allowHttp: true,
    // The default: the relay's (here the PDS's) own verification is trusted, as with Bluesky's relay.
    verifyCommits: false,
    postUrlBase: 'https://bsky.app',
  });
  const newReading = (stream: { batchSize?: number; flushMs?: number; maxBackoffMs?: number } = {}) =>
    createBlueskyReading({
      config: blueskyConfig(),
      db: database.db,
      log,
      clock,
      stream,
      officialHandleDomain: 'test',
    });
  const head = async () => (await net.network.pds.ctx.sequencer.curr()) ?? 0;
  const post = async (
    who: string,
    text: string,
    extra: { quote?: Ref; tags?: string[]; mention?: string } = {},
  ) => {
    const facets = extra.mention
      ? [
          {
            index: { byteStart: text.indexOf('@'), byteEnd: text.indexOf('@') + extra.mention.length + 1 },
            features: [
              {
                $type: 'app.bsky.richtext.facet#mention' as const,
                did: did[extra.mention.replace(/\.test$/, '')] ?? '',
              },
            ],
          },
        ]
      : undefined;
    const made = await sc.post(
      did[who] as Did,
      text,
      facets as never,
      undefined,
      extra.quote,
      extra.tags ? { tags: extra.tags } : undefined,
    );
    return made.ref;
  };
  const like = (who: string, subject: Ref) => sc.like(did[who] as Did, subject);
  const repost = (who: string, subject: Ref) => sc.repost(did[who] as Did, subject);
  const reply = async (who: string, parent: Ref, text: string) =>
    (await sc.reply(did[who] as Did, parent, parent, text)).ref;

  async function board(): Promise<Map<string, number>> {
    const response = await app.inject({ method: 'GET', url: '/api/mana?limit=100' });
    expect(response.statusCode).toBe(200);
    const data = manaResponseSchema.parse(response.json()).data;
    return new Map(data.authors.map((a) => [a.authorName.replace(/\.test$/, ''), a.totalMana]));
  }

  async function breakdown(who: string) {
    const response = await app.inject({ method: 'GET', url: `/api/mana/${did[who]}/breakdown` });
    expect(response.statusCode).toBe(200);
    return breakdownResponseSchema.parse(response.json()).data;
  }

  /**
   * Waits until the AppView has indexed what the PDS holds: every tracked post (and the official post) shows the
   * counts the test seeded, and deleted posts are gone. processAll alone returns early now and then on this
   * shared machine, and a refresh against a lagging AppView would (for one run) reconcile to older counts.
   */
  async function appViewCaughtUp() {
    await net.network.processAll();
    const want = new Map([...tally.posts].filter(([, p]) => !p.deleted).map(([id, p]) => [id, p.counts]));
    if (refs.hq) want.set(refs.hq.uriStr, { likes: 2, replies: 1, reposts: 1, quotes: 0 });
    const gone = [...tally.posts].filter(([, p]) => p.deleted).map(([id]) => id);
    await expect
      .poll(
        async () => {
          const answer = await reading.network.readMetrics([...want.keys(), ...gone]);
          return {
            counts: Object.fromEntries(answer.posts.map((p) => [p.id, p.metrics])),
            missing: answer.missing.map((m) => m.id).sort(),
          };
        },
        { timeout: 30_000, interval: 250 },
      )
      .toEqual({ counts: Object.fromEntries(want), missing: gone.sort() });
  }

  /** Once the AppView caught up, refresh reconciles from getPosts and totals recompute. */
  async function reconcile() {
    await appViewCaughtUp();
    await worker.runJob('refresh');
    await worker.runJob('totals');
  }

  async function expectBoard(withInteractions: boolean) {
    const expected = tally.expected(rules, withInteractions);
    const got = await board();
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));
    for (const [who, mana] of expected) {
      const lines = (await breakdown(who)).lines;
      expect(lines.reduce((sum, l) => sum + l.mana, 0)).toBe(mana);
    }
  }

  beforeAll(async () => {
    net = await startAtprotoNetwork();
    sc = net.network.getSeedClient();
    for (const name of handles) {
      const account = await sc.createAccount(name, {
        handle: `${name}.test`,
        email: `${name}@example.test`,
        password: `${name}-password`,
      });
      did[name] = account.did;
    }
    await net.network.processAll();
    database = await openTestDatabase('pglite');
    rules = { ...(await readRulesFile()), officialHandles: ['manahq'] };
    await saveRules(database.db, rules, 'test: the official account of the local network');
    reading = newReading({ batchSize: 4, flushMs: 100 });
    worker = new Worker(
      { db: database.db, network: reading.network, clock, log },
      { databaseKind: database.kind, jobs: BLUESKY_JOBS },
    );
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
    app = await buildApp({ config, database, clock, leaderboardCacheMs: 0 });
    await app.ready();
  }, 120_000);

  afterAll(async () => {
    await reading?.stream.stop();
    await worker?.stop();
    await app?.close();
    await database?.close();
    await net?.close();
  }, 60_000);

  it("picks posts, likes, reposts, quotes and replies up from the stream; the board and breakdowns equal the rules applied to the seeded actions; a linked member's interactions with an official post settle", async () => {
    // Dan links before he posts: his later posts earn the linked multiplier.
    const account = await upsertAccount(database.db, {
      networkUserId: did.dan ?? '',
      handle: 'dan.test',
      avatarUrl: null,
      networkCreatedAt: null,
      followers: 100,
      sealedAccessToken: 'sealed',
      sealedRefreshToken: null,
      tokenExpiresAt: new Date(clock.now() + HOUR),
      scopes: 'atproto',
      now: new Date(clock.now()),
    });
    await bindBrowser(database.db, hashBrowserId(randomUUID()), account.id, new Date(clock.now()));
    // The stream starts at the network's current head: everything seeded below arrives through it.
    await saveCursor(database.db, STREAM_JOB, { seq: await head() }, new Date(clock.now()));
    await reading.stream.start();

    refs.ann = await post('ann', 'I love #ManaBoard');
    tally.track(refs.ann.uriStr, 'ann');
    refs.bob = await post('bob', 'great stuff, ask @manahq.test', { mention: 'manahq.test' });
    tally.track(refs.bob.uriStr, 'bob');
    refs.eve = await post('eve', 'a quiet post', { tags: ['EarnMana'] }); // a tag outside the text
    tally.track(refs.eve.uriStr, 'eve');
    const offTopic = await post('cat', 'nothing to see here');
    refs.catQuote = await post('cat', 'so true #ManaBoard', { quote: refs.ann });
    tally.track(refs.catQuote.uriStr, 'cat');
    tally.add(refs.ann.uriStr, 'quotes');
    for (const who of ['eve', 'dan', 'bob']) {
      await like(who, refs.ann);
      tally.add(refs.ann.uriStr, 'likes');
    }
    await repost('bob', refs.ann);
    tally.add(refs.ann.uriStr, 'reposts');
    await reply('eve', refs.ann, 'nice');
    tally.add(refs.ann.uriStr, 'replies');
    await reply('ann', refs.bob, 'a reply is never tracked, even with #ManaBoard');
    tally.add(refs.bob.uriStr, 'replies');
    await like('ann', refs.catQuote);
    tally.add(refs.catQuote.uriStr, 'likes');
    await like('cat', refs.bob);
    tally.add(refs.bob.uriStr, 'likes');
    await like('cat', refs.eve);
    tally.add(refs.eve.uriStr, 'likes');
    await like('ann', offTopic); // not tracked: counts nowhere
    // The official account: its posts are not tracked (the programme does not reward itself); a linked member's
    // like, repost and reply of one earn interaction Mana once settled; an unlinked member's like earns nothing.
    refs.hq = await post('manahq', 'Welcome to #ManaBoard');
    await like('dan', refs.hq);
    await repost('dan', refs.hq);
    await reply('dan', refs.hq, 'hello!');
    tally.interactions.push(
      { member: 'dan', kind: 'like' },
      { member: 'dan', kind: 'repost' },
      { member: 'dan', kind: 'reply' },
    );
    await like('eve', refs.hq);
    refs.dan = await post('dan', '#EarnMana day one');
    tally.track(refs.dan.uriStr, 'dan', true);
    await like('ann', refs.dan);
    tally.add(refs.dan.uriStr, 'likes');

    await reading.stream.storedThrough(await head());
    // Before any reconcile, the stream alone gave every count.
    const stored = await database.db
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
    ).toEqual(Object.fromEntries([...tally.posts].map(([id, p]) => [id, p.counts])));
    const pending = await database.db
      .selectFrom('interactions')
      .select(['member_id', 'kind', 'status'])
      .orderBy('kind')
      .execute();
    expect(pending).toEqual([
      { member_id: did.dan, kind: 'like', status: 'pending' },
      { member_id: did.dan, kind: 'reply', status: 'pending' },
      { member_id: did.dan, kind: 'repost', status: 'pending' },
    ]);

    await reconcile();
    await expectBoard(false);
    // Dan's post line carries the linked multiplier.
    const danLines = (await breakdown('dan')).lines;
    expect(danLines.find((l) => l.type === 'post')).toMatchObject({
      multiplier: rules.linkedMultiplier,
      likes: 1,
    });

    // 25 hours later the settle job re-checks on the AppView (likes, reposts and replies are public): credited.
    offset += 25 * HOUR;
    await appViewCaughtUp();
    await worker.runJob('settle');
    await worker.runJob('totals');
    await expectBoard(true);
    const lines = (await breakdown('dan')).lines.filter((l) => l.type === 'interaction');
    expect(lines.map((l) => [l.kind, l.status, l.mana])).toEqual(
      expect.arrayContaining([
        ['like', 'credited', rules.interactionRewards.like],
        ['repost', 'credited', rules.interactionRewards.repost],
        ['reply', 'credited', rules.interactionRewards.reply],
      ]),
    );
  }, 120_000);

  it('a deleted post stops counting inside its refresh window; a deleted like takes back its count', async () => {
    const eveLike = await sc.like(did.eve as Did, refs.catQuote as Ref);
    tally.add((refs.catQuote as Ref).uriStr, 'likes');
    await reading.stream.storedThrough(await head());
    await sc.deletePost(did.bob as Did, (refs.bob as Ref).uri);
    (tally.posts.get((refs.bob as Ref).uriStr) as { deleted: boolean }).deleted = true;
    await sc.agent.com.atproto.repo.deleteRecord(
      { repo: did.eve ?? '', collection: 'app.bsky.feed.like', rkey: eveLike.rkey },
      { headers: sc.getHeaders(did.eve as Did) },
    );
    tally.add((refs.catQuote as Ref).uriStr, 'likes', -1);
    await reading.stream.storedThrough(await head());
    const bobPost = await database.db
      .selectFrom('posts')
      .select(['status', 'final'])
      .where('id', '=', (refs.bob as Ref).uriStr)
      .executeTakeFirstOrThrow();
    expect(bobPost).toEqual({ status: 'deleted', final: false });
    const quote = await database.db
      .selectFrom('posts')
      .select('likes')
      .where('id', '=', (refs.catQuote as Ref).uriStr)
      .executeTakeFirstOrThrow();
    expect(quote.likes).toBe(1);
    await worker.runJob('totals');
    await reconcile();
    await expectBoard(true);
    expect((await board()).get('bob')).toBe(0);
  }, 120_000);

  it('stopped in the middle of a burst, and failing once, the consumer resumes from its stored cursor and counts nothing twice', async () => {
    await reading.stream.stop();
    // Back on the wall clock: the settle test moved the engine 25 h on, and a cursor that old is (rightly) a gap.
    offset = 0;
    const start = await head();
    const ann = refs.ann as Ref;
    const quote = refs.catQuote as Ref;
    for (const who of ['fan1', 'fan2', 'fan3', 'fan4', 'fan5', 'fan6']) {
      await like(who, ann);
      tally.add(ann.uriStr, 'likes');
      await repost(who, quote);
      tally.add(quote.uriStr, 'reposts');
    }
    const late = await post('fan1', 'late to the #ManaBoard party');
    tally.track(late.uriStr, 'fan1');
    for (const who of ['fan2', 'fan3']) {
      await like(who, late);
      tally.add(late.uriStr, 'likes');
    }
    const end = await head();
    const recordsBefore = (await database.db.selectFrom('stream_records').select('id').execute()).length;

    // A consumer that stops itself after two stored batches of three events: mid-burst.
    let batches = 0;
    let stopping: Promise<void> | undefined;
    const first = newReading({ batchSize: 3, flushMs: 60_000 });
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
    const second = newReading({ batchSize: 3, flushMs: 100, maxBackoffMs: 200 });
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
    const state = await readState(database.db, STREAM_JOB);
    expect(state?.last_error).toContain('database unavailable (test)');
    expect((state?.cursor as { seq?: number }).seq).toBe(end);

    // Counted once each: 6 likes + 6 reposts + 2 likes on tracked posts.
    const recordsAfter = (await database.db.selectFrom('stream_records').select('id').execute()).length;
    expect(recordsAfter - recordsBefore).toBe(14);
    const stored = await database.db
      .selectFrom('posts')
      .select(['id', 'likes', 'reposts'])
      .where('id', 'in', [ann.uriStr, quote.uriStr, late.uriStr])
      .execute();
    for (const p of stored) {
      const counts = tally.posts.get(p.id)?.counts;
      expect({ likes: p.likes, reposts: p.reposts }).toEqual({
        likes: counts?.likes,
        reposts: counts?.reposts,
      });
    }
    await reconcile();
    await expectBoard(true);

    // A day later than the relay keeps: the consumer reports the gap (log and ingest_state) and reads on.
    offset = 25 * HOUR;
    const third = newReading();
    await third.stream.start();
    await third.stream.stop();
    expect((await readState(database.db, STREAM_JOB))?.last_error).toMatch(/^gap: the stream stopped at /);
  }, 120_000);

  it('with SOCIAL_NETWORK=bluesky the worker leader runs the consumer, and stopping the worker stops it', async () => {
    offset = 0;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SOCIAL_NETWORK: 'bluesky',
      BLUESKY_APPVIEW_URL: net.appviewUrl,
      BLUESKY_PLC_URL: net.plcUrl,
      BLUESKY_RELAY_URL: net.streamUrl,
      BLUESKY_ALLOW_HTTP: 'true',
    });
    await saveCursor(database.db, STREAM_JOB, { seq: await head() }, new Date());
    const runtime = createWorkerRuntime({ config, database, log });
    expect(runtime.worker.uses('search')).toBe(false);
    expect(runtime.worker.uses('refresh')).toBe(true);
    await runtime.start();
    try {
      expect(runtime.worker.isLeader).toBe(true);
      const seen = await post('eve', 'the worker reads #ManaBoard too');
      await expect
        .poll(
          async () =>
            (await database.db.selectFrom('posts').select('id').where('id', '=', seen.uriStr).execute())
              .length,
          { timeout: 30_000 },
        )
        .toBe(1);
    } finally {
      await runtime.stop();
    }
    const unseen = await post('eve', 'written while no worker leads #ManaBoard');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(
      await database.db.selectFrom('posts').select('id').where('id', '=', unseen.uriStr).execute(),
    ).toEqual([]);
  }, 120_000);
});

describe('the worker runs a leader service only while it leads', () => {
  it('starts it with leadership and stops it when stopping', async () => {
    const database = await openTestDatabase('pglite');
    const events: string[] = [];
    const service = {
      name: 'probe',
      start: async () => void events.push('start'),
      stop: async () => void events.push('stop'),
    };
    const network = {} as never;
    const worker = new Worker(
      {
        db: database.db,
        network,
        clock: { now: Date.now, sleep: async () => undefined },
        log: pino({ level: 'silent' }),
      },
      { databaseKind: database.kind, jobs: ['totals'], leaderServices: [service] },
    );
    try {
      await worker.start();
      expect(worker.isLeader).toBe(true);
      expect(events).toEqual(['start']);
      // A job the network does not use is not run.
      expect(await worker.runJob('search')).toBeNull();
      await worker.stop();
      expect(events).toEqual(['start', 'stop']);
    } finally {
      await worker.stop();
      await database.close();
    }
  });
});
