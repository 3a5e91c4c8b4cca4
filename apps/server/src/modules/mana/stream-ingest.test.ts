import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgrammeRules } from '@manaboard/contract';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { hashBrowserId } from '../identity/browser-id';
import { bindBrowser, upsertAccount } from '../linking/accounts.repository';
import { readRulesFile } from '../programme/programme.service';
import { readState, saveCursor } from './ingest-state.repository';
import { reconcileStreamBatch } from './reconcile.service';
import { STREAM_JOB, StreamIngest, type StreamEvent } from './stream-ingest.service';

const NOW = new Date('2026-11-24T12:00:00Z');
const A = 'author-a';
const B = 'member-b';
const C = 'someone-c';
const HQ = 'official-hq';
const P = 'post-p';
const O = 'official-post-o';

const post = (id: string, authorId: string, text: string, extra: Partial<StreamEvent> = {}): StreamEvent =>
  ({
    type: 'post',
    id,
    authorId,
    text,
    tags: [],
    mentions: [],
    createdAt: new Date(NOW.getTime() - 60_000),
    replyTo: null,
    quotes: null,
    ...extra,
  }) as StreamEvent;
const like = (id: string, by: string, subject: { id: string; authorId: string }): StreamEvent => ({
  type: 'like',
  id,
  authorId: by,
  subject,
  createdAt: NOW,
});

/**
 * The engine's side of an event stream, on the order and repetition a stream really has (a like before its post,
 * a batch seen twice after a crash, a record created and deleted in one batch). The network here is only the
 * profile lookup the ingest asks for; the real network runs in integrations/bluesky/bluesky-reading.test.ts.
 */
// Also on the database's own thread, as the server runs it on Bluesky (PGLITE_THREAD).
describe.each([...testDatabaseKinds(), 'pglite-thread' as const])('stream ingest (%s)', (kind) => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function setup() {
    database = await openTestDatabase(kind);
    const rules: ProgrammeRules = await readRulesFile();
    const ingest = new StreamIngest({
      db: database.db,
      network: { authorByHandle: async () => null },
      authorsOf: async (ids) =>
        ids.map((id) => ({
          networkUserId: id,
          handle: `${id}.handle`,
          displayName: id,
          avatarUrl: null,
          createdAt: null,
          followers: null,
          protected: false,
        })),
      log: { warn: () => undefined },
    });
    const db = database.db;
    const metrics = async (id: string) =>
      db
        .selectFrom('posts')
        .select(['likes', 'replies', 'reposts', 'quotes', 'status'])
        .where('id', '=', id)
        .executeTakeFirst();
    const records = async () => (await db.selectFrom('stream_records').select('id').execute()).length;
    return { db, rules, ingest, metrics, records, officials: new Set([HQ]) };
  }

  it('a like that arrives before its post counts when the post arrives; a replayed batch counts nothing twice', async () => {
    const { rules, ingest, metrics, records, officials, db } = await setup();
    await ingest.ingest(rules, officials, [like('like-1', B, { id: P, authorId: A })], { seq: 1 }, NOW);
    expect(await metrics(P)).toBeUndefined();
    expect(ingest.waiting).toBe(1);

    const batch2 = [post(P, A, 'I love #ManaBoard'), like('like-2', C, { id: P, authorId: A })];
    await ingest.ingest(rules, officials, batch2, { seq: 2 }, NOW);
    expect(await metrics(P)).toMatchObject({ likes: 2, status: 'live' });
    expect(ingest.waiting).toBe(0);
    expect(await records()).toBe(2);

    // The same batch again (a restart before the cursor moved on): nothing changes.
    await ingest.ingest(rules, officials, batch2, { seq: 2 }, NOW);
    expect(await metrics(P)).toMatchObject({ likes: 2 });
    expect(await records()).toBe(2);
    expect((await readState(db, STREAM_JOB))?.cursor).toEqual({ seq: 2 });
  });

  it('replies and quotes count on their subject; deletions take back exactly what their record gave', async () => {
    const { rules, ingest, metrics, officials } = await setup();
    await ingest.ingest(rules, officials, [post(P, A, '#ManaBoard first')], { seq: 1 }, NOW);
    await ingest.ingest(
      rules,
      officials,
      [
        post('reply-1', B, 'nice', { replyTo: { id: P, authorId: A } }),
        post('quote-1', B, 'so true #ManaBoard', { quotes: { id: P, authorId: A } }),
        like('like-1', B, { id: P, authorId: A }),
        like('like-2', HQ, { id: P, authorId: A }),
        { type: 'delete', id: 'like-2', authorId: HQ }, // created and deleted in one batch
      ],
      { seq: 2 },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 1, replies: 1, quotes: 1, reposts: 0 });
    // The quote names the programme: it is B's own tracked post.
    expect(await metrics('quote-1')).toMatchObject({ status: 'live' });
    expect(await metrics('reply-1')).toBeUndefined(); // replies are never tracked

    await ingest.ingest(
      rules,
      officials,
      [
        { type: 'delete', id: 'like-1', authorId: B },
        { type: 'delete', id: 'reply-1', authorId: B },
        { type: 'delete', id: 'unknown-record', authorId: B },
      ],
      { seq: 3 },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 0, replies: 0, quotes: 1 });
    await ingest.ingest(rules, officials, [{ type: 'delete', id: P, authorId: A }], { seq: 4 }, NOW);
    expect(await metrics(P)).toMatchObject({ status: 'deleted' });
  });

  it('an account counts once per post and kind: its second like or repost is kept void as a duplicate, as the AppView keeps one', async () => {
    const { rules, ingest, metrics, officials, db } = await setup();
    const repost = (id: string, by: string): StreamEvent => ({
      type: 'repost',
      id,
      authorId: by,
      subject: { id: P, authorId: A },
      createdAt: NOW,
    });
    const states = async () =>
      Object.fromEntries(
        (await db.selectFrom('stream_records').select(['id', 'state', 'void_reason']).execute()).map((r) => [
          r.id,
          r.void_reason ?? r.state,
        ]),
      );
    await ingest.ingest(rules, officials, [post(P, A, '#ManaBoard first')], { seq: 1 }, NOW);
    // Two likes and two reposts by B in one batch, one like by C.
    await ingest.ingest(
      rules,
      officials,
      [
        like('like-b1', B, { id: P, authorId: A }),
        like('like-b2', B, { id: P, authorId: A }),
        like('like-c1', C, { id: P, authorId: A }),
        repost('repost-b1', B),
        repost('repost-b2', B),
      ],
      { seq: 2 },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 2, reposts: 1 });
    // A third like by B in a later batch, and the duplicate seen again (a replay).
    await ingest.ingest(
      rules,
      officials,
      [like('like-b3', B, { id: P, authorId: A }), like('like-b2', B, { id: P, authorId: A })],
      { seq: 3 },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 2, reposts: 1 });
    expect(await states()).toEqual({
      'like-b1': 'counted',
      'like-b2': 'duplicate',
      'like-b3': 'duplicate',
      'like-c1': 'counted',
      'repost-b1': 'counted',
      'repost-b2': 'duplicate',
    });
    // The AppView keeps one like per account: a reading of 3 (B, C and a like the stream missed) is below the 4
    // like records the stream stored, yet holds every one that counts; it raises the count (ADR 013).
    await saveCursor(db, STREAM_JOB, { seq: 3, time: NOW.toISOString() }, NOW);
    await reconcileStreamBatch(
      db,
      rules,
      { missingGraceMs: 3_600_000, caughtUpMs: 300_000 },
      [{ id: P, authorId: A, createdAt: new Date(NOW.getTime() - 60_000) }],
      {
        posts: [
          {
            id: P,
            authorId: A,
            text: '',
            createdAt: new Date(NOW.getTime() - 60_000),
            kind: 'original',
            referencedPostId: null,
            conversationId: null,
            metrics: { likes: 3, replies: 0, reposts: 1, quotes: 0 },
          },
        ],
        missing: [],
      },
      { job: 'refresh', value: {} },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 3, reposts: 1 });
    // Deleting a duplicate takes nothing back; deleting the one that counts takes its point back, and B's next
    // like counts again (the AppView's one like per account is then free).
    await ingest.ingest(rules, officials, [{ type: 'delete', id: 'like-b2', authorId: B }], { seq: 4 }, NOW);
    expect(await metrics(P)).toMatchObject({ likes: 3 });
    await ingest.ingest(rules, officials, [{ type: 'delete', id: 'like-b1', authorId: B }], { seq: 5 }, NOW);
    expect(await metrics(P)).toMatchObject({ likes: 2 });
    await ingest.ingest(rules, officials, [like('like-b4', B, { id: P, authorId: A })], { seq: 6 }, NOW);
    expect(await metrics(P)).toMatchObject({ likes: 3 });
    expect(await states()).toMatchObject({
      'like-b1': 'deleted',
      'like-b2': 'deleted',
      'like-b4': 'counted',
    });
    // An unlike and a like again within one batch (in either order): the new like counts.
    await ingest.ingest(
      rules,
      officials,
      [{ type: 'delete', id: 'like-b4', authorId: B }, like('like-b5', B, { id: P, authorId: A })],
      { seq: 7 },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 3 });
    await ingest.ingest(
      rules,
      officials,
      [like('like-c2', C, { id: P, authorId: A }), { type: 'delete', id: 'like-c1', authorId: C }],
      { seq: 8 },
      NOW,
    );
    expect(await metrics(P)).toMatchObject({ likes: 3 });
    expect(await states()).toMatchObject({
      'like-b4': 'deleted',
      'like-b5': 'counted',
      'like-c1': 'deleted',
      'like-c2': 'counted',
    });
  });

  it("a linked member's like of an official post is pending at once, even before the post is seen; others earn nothing", async () => {
    const { rules, ingest, officials, db } = await setup();
    const account = await upsertAccount(db, {
      networkUserId: B,
      handle: 'member-b',
      avatarUrl: null,
      networkCreatedAt: null,
      followers: 100,
      sealedAccessToken: 'sealed',
      sealedRefreshToken: null,
      tokenExpiresAt: new Date(NOW.getTime() + 3_600_000),
      scopes: 'atproto',
      now: NOW,
    });
    await bindBrowser(db, hashBrowserId(randomUUID()), account.id, NOW);
    const result = await ingest.ingest(
      rules,
      officials,
      [
        like('like-o', B, { id: O, authorId: HQ }),
        like('like-o-2', A, { id: O, authorId: HQ }), // A is not linked
        post(O, HQ, 'Welcome to #ManaBoard'), // the official post arrives after the like
      ],
      { seq: 1 },
      NOW,
    );
    expect(result.interactions).toBe(1);
    const lines = await db
      .selectFrom('interactions')
      .select(['member_id', 'post_id', 'kind', 'status'])
      .execute();
    expect(lines).toEqual([{ member_id: B, post_id: O, kind: 'like', status: 'pending' }]);
    // The official account's own post is remembered as official, never tracked for Mana.
    expect(await db.selectFrom('official_posts').select('id').execute()).toEqual([{ id: O }]);
    expect(await db.selectFrom('posts').select('id').execute()).toEqual([]);
  });
});
