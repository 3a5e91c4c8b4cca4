import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsResponseSchema, type ProgrammeRules } from '@manaboard/contract';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { hashBrowserId } from '../identity/browser-id';
import { bindBrowser, upsertAccount } from '../linking/accounts.repository';
import { saveCursor } from '../mana/ingest-state.repository';
import { reconcileStreamBatch } from '../mana/reconcile.service';
import { STREAM_JOB, StreamIngest, type StreamEvent } from '../mana/stream-ingest.service';
import { readRulesFile } from '../programme/programme.service';
import { DAY_MS } from '../../lib/time';

const NOW = new Date();
const did = (name: string) => `did:plc:${name}`;
const uri = (name: string, collection: string, rkey: string) => `at://${did(name)}/${collection}/${rkey}`;
const A = did('ann');
const B = did('bob');
const C = did('cat');
const HQ = did('hq');
const P = uri('ann', 'app.bsky.feed.post', '3kpost');
const OLD = uri('ann', 'app.bsky.feed.post', '3kold');
const O = uri('hq', 'app.bsky.feed.post', '3kofficial');
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000);

const post = (id: string, authorId: string, text: string, extra: Partial<StreamEvent> = {}): StreamEvent =>
  ({
    type: 'post',
    id,
    authorId,
    text,
    tags: [],
    mentions: [],
    createdAt: at(60),
    replyTo: null,
    quotes: null,
    cid: `bafy-${id.slice(-6)}`,
    ...extra,
  }) as StreamEvent;
const like = (rkey: string, by: string, subject: string, minutesAgo: number): StreamEvent => ({
  type: 'like',
  id: `at://${by}/app.bsky.feed.like/${rkey}`,
  authorId: by,
  subject: { id: subject, authorId: subject.split('/')[2] ?? '' },
  createdAt: at(minutesAgo),
  cid: `bafylike${rkey}`,
});

/**
 * The records page on a stream network (Bluesky's shapes, the engine's own ingest): each record with its CID,
 * newest first, paged; a deleted like kept void ('deleted') and its point gone; a second like by the same account
 * kept void ('duplicate'); a like that came once its post no longer moved kept void ('late'); a reconcile's raise shown as not traceable; an interaction with its record.
 */
describe.each(testDatabaseKinds())('the records behind a line, on a stream network (%s)', (kind) => {
  let t: TestApp;
  let ingest: StreamIngest;
  let rules: ProgrammeRules;
  const officials = new Set([HQ]);
  beforeAll(async () => {
    // The answer cache off: the test reads a page again right after the data behind it changed.
    t = await buildTestApp(kind, {
      SOCIAL_NETWORK: 'bluesky',
      PUBLIC_ORIGIN: 'http://127.0.0.1:1',
      LEADERBOARD_CACHE: 'off',
    });
    rules = await readRulesFile();
    ingest = new StreamIngest({
      db: t.database.db,
      network: { authorByHandle: async () => null },
      authorsOf: async (ids) =>
        ids.map((id) => ({
          networkUserId: id,
          handle: `${id.slice(8)}.test`,
          displayName: id,
          avatarUrl: null,
          createdAt: null,
          followers: null,
          protected: false,
        })),
      log: { warn: () => undefined },
    });
    const account = await upsertAccount(t.database.db, {
      networkUserId: B,
      handle: 'bob.test',
      avatarUrl: null,
      networkCreatedAt: null,
      followers: 100,
      sealedAccessToken: 'sealed',
      sealedRefreshToken: null,
      tokenExpiresAt: new Date(NOW.getTime() + 3_600_000),
      scopes: 'atproto',
      now: NOW,
    });
    await bindBrowser(t.database.db, hashBrowserId(randomUUID()), account.id, NOW);
    const old = { createdAt: new Date(NOW.getTime() - (rules.refreshWindowDays + 1) * DAY_MS) };
    await ingest.ingest(
      rules,
      officials,
      [
        post(P, A, 'counting on #ManaBoard'),
        post(OLD, A, 'long ago on #ManaBoard', old),
        post(uri('bob', 'app.bsky.feed.post', '3kbob'), B, 'bob too, #ManaBoard'),
        post(O, HQ, 'welcome to #ManaBoard'),
        like('1', B, P, 50),
        like('2', C, P, 40),
        post(uri('cat', 'app.bsky.feed.post', '3kreply'), C, 'nice', {
          replyTo: { id: P, authorId: A },
          createdAt: at(30),
        }),
        like('3', B, P, 20),
        like('4', B, OLD, 10),
        like('5', B, O, 5),
      ],
      { seq: 1 },
      NOW,
    );
    await ingest.ingest(
      rules,
      officials,
      [{ type: 'delete', id: `at://${C}/app.bsky.feed.like/2`, authorId: C }],
      { seq: 2 },
      NOW,
    );
  });
  afterAll(() => t?.close());

  const records = async (query: string) => {
    const response = await t.app.inject({ url: `/api/mana/${A}/records?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return recordsResponseSchema.parse(response.json()).data;
  };

  it('lists a post line newest first with each record CID, author and link; a deleted like is void and took its point back; a second like by one account is void as a duplicate', async () => {
    const data = await records(`post=${encodeURIComponent(P)}`);
    expect(data.counts).toEqual({ likes: 1, replies: 1, reposts: 0, quotes: 0 });
    expect(data.notTraceable).toEqual({ likes: 0, replies: 0, reposts: 0, quotes: 0 });
    expect(data.records.map((r) => [r.kind, r.uri, r.cid, r.state, r.reason, r.source])).toEqual([
      ['like', `at://${B}/app.bsky.feed.like/3`, 'bafylike3', 'void', 'duplicate', 'stream'],
      ['reply', uri('cat', 'app.bsky.feed.post', '3kreply'), 'bafy-kreply', 'counted', null, 'stream'],
      ['like', `at://${C}/app.bsky.feed.like/2`, 'bafylike2', 'void', 'deleted', 'stream'],
      ['like', `at://${B}/app.bsky.feed.like/1`, 'bafylike1', 'counted', null, 'stream'],
    ]);
    const [newest, reply] = data.records;
    // A like has no page of its own: its author's profile; a reply is a post with its own page.
    expect(newest).toMatchObject({
      author: { id: B, handle: 'bob.test', url: `https://bsky.app/profile/${B}` },
      url: `https://bsky.app/profile/${B}`,
      urlIsAuthor: true,
      at: at(20).toISOString(),
    });
    expect(reply).toMatchObject({
      author: { id: C, handle: null },
      url: `https://bsky.app/profile/${C}/post/3kreply`,
      urlIsAuthor: false,
    });
  });

  it('pages by `page` and `limit`, saying whether more follow', async () => {
    const first = await records(`post=${encodeURIComponent(P)}&limit=3`);
    const second = await records(`post=${encodeURIComponent(P)}&limit=3&page=2`);
    expect([first.hasMore, second.hasMore]).toEqual([true, false]);
    expect([...first.records, ...second.records].map((r) => r.uri)).toEqual(
      (await records(`post=${encodeURIComponent(P)}`)).records.map((r) => r.uri),
    );
  });

  it('keeps a like that came once its post no longer moved as void (late): its count did not move', async () => {
    const data = await records(`post=${encodeURIComponent(OLD)}`);
    expect(data.counts?.likes).toBe(0);
    expect(data.records).toEqual([expect.objectContaining({ kind: 'like', state: 'void', reason: 'late' })]);
  });

  it('shows the points a reconcile raised from the AppView as not traceable', async () => {
    await saveCursor(t.database.db, STREAM_JOB, { seq: 3, time: NOW.toISOString() }, NOW);
    await reconcileStreamBatch(
      t.database.db,
      rules,
      { missingGraceMs: 3_600_000, caughtUpMs: 300_000 },
      [{ id: P, authorId: A, createdAt: at(60) }],
      {
        posts: [
          {
            id: P,
            authorId: A,
            text: '',
            createdAt: at(60),
            kind: 'original',
            referencedPostId: null,
            conversationId: null,
            metrics: { likes: 5, replies: 1, reposts: 0, quotes: 0 },
          },
        ],
        missing: [],
      },
      { job: 'refresh', value: {} },
      NOW,
    );
    const data = await records(`post=${encodeURIComponent(P)}`);
    expect(data.counts).toEqual({ likes: 5, replies: 1, reposts: 0, quotes: 0 });
    expect(data.notTraceable).toEqual({ likes: 4, replies: 0, reposts: 0, quotes: 0 });
  });

  it("shows a member's interaction with an official post with its record and CID, pending with its due date", async () => {
    const response = await t.app.inject({ url: `/api/mana/${B}/records?line=interaction` });
    expect(response.statusCode, response.body).toBe(200);
    const data = recordsResponseSchema.parse(response.json()).data;
    expect(data.records).toEqual([
      expect.objectContaining({
        kind: 'like',
        uri: `at://${B}/app.bsky.feed.like/5`,
        cid: 'bafylike5',
        state: 'pending',
        dueAt: new Date(NOW.getTime() + rules.settleByHours * 3_600_000).toISOString(),
      }),
    ]);
  });
});
