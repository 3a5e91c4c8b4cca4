import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { readRulesFile } from '../programme/programme.service';
import { StreamIngest, type StreamEvent } from '../mana/stream-ingest.service';
import { listFairnessFlags, recomputeFairnessFlags } from './fairness.service';

const NOW = new Date('2026-11-24T12:00:00Z');
const HOUR = 3_600_000;
const did = (name: string) => `did:plc:${name.padEnd(24, 'x')}`;

/**
 * The same detector on an event stream's data (Bluesky-shaped: DIDs, at:// record ids, likes and reposts the
 * stream names): the stream ingest stores what it counts and the detector reads only the stored, neutral rows.
 */
describe.each(testDatabaseKinds())('fairness on stream data (%s)', (kind) => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('flags a ring that likes, reposts and replies to itself; not an author with a wide audience', async () => {
    database = await openTestDatabase(kind);
    const rules = await readRulesFile();
    const ingest = new StreamIngest({
      db: database.db,
      network: { authorByHandle: async () => null },
      authorsOf: async (ids) =>
        ids.map((id) => ({
          networkUserId: id,
          handle: `${id.slice(8, 12)}.bsky.social`,
          displayName: id,
          avatarUrl: null,
          createdAt: null,
          followers: null,
          protected: false,
        })),
      log: { warn: () => undefined },
    });
    const ring = ['ra', 'rb', 'rc', 'rd'].map(did);
    const popular = did('popular');
    const fans = Array.from({ length: 12 }, (_, i) => did(`fan${i}`));
    const events: StreamEvent[] = [];
    let seq = 0;
    const uri = (author: string, collection: string) => `at://${author}/app.bsky.${collection}/${++seq}`;
    const postBy = (author: string, at: number) => {
      const id = uri(author, 'feed.post');
      events.push({
        type: 'post',
        id,
        authorId: author,
        text: 'loving #ManaBoard',
        tags: [],
        mentions: [],
        createdAt: new Date(at),
        replyTo: null,
        quotes: null,
      });
      return { id, authorId: author };
    };
    const engage = (actor: string, subject: { id: string; authorId: string }, k: number, at: number) => {
      const type = (['like', 'repost', 'reply'] as const)[k % 3] ?? 'like';
      if (type === 'reply')
        events.push({
          type: 'post',
          id: uri(actor, 'feed.post'),
          authorId: actor,
          text: 'so true',
          tags: [],
          mentions: [],
          createdAt: new Date(at),
          replyTo: subject,
          quotes: null,
        });
      else
        events.push({
          type,
          id: uri(actor, `feed.${type}`),
          authorId: actor,
          subject,
          createdAt: new Date(at),
        });
    };
    for (let day = 0; day < 3; day++) {
      const at = NOW.getTime() - (3 - day) * 24 * HOUR;
      const ringPosts = ring.map((author) => postBy(author, at));
      ring.forEach((actor, i) =>
        ringPosts.forEach((p, k) => p.authorId !== actor && engage(actor, p, i + k + day, at + HOUR)),
      );
      const popularPost = postBy(popular, at);
      // The popular author's friends (two of the ring) engage too, but most engagement is from a wide audience.
      fans.forEach((fan, k) => engage(fan, popularPost, k + day, at + 2 * HOUR));
      engage(ring[0] as string, popularPost, day, at + 3 * HOUR);
      engage(popular, ringPosts[0] as { id: string; authorId: string }, day, at + 3 * HOUR);
    }
    await ingest.ingest(rules, new Set(), events, { seq }, NOW);

    const run = await recomputeFairnessFlags(database.db, NOW);
    const { flags } = await listFairnessFlags(database.db, { limit: 50, offset: 0 });
    expect(run.flags.ring).toBe(4);
    expect(
      flags
        .filter((f) => f.kind === 'ring')
        .map((f) => f.subjectId)
        .sort(),
    ).toEqual([...ring].sort());
    expect(flags.some((f) => f.subjectId === popular)).toBe(false);
    const rb = flags.find((f) => f.subjectId === did('rb'));
    expect(rb?.handle).toBe('rbxx.bsky.social');
    expect(rb?.evidence).toMatchObject({ received: 9, fromCluster: 9, share: 1, density: 1 });
  }, 60_000);
});
