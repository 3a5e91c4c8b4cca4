import { describe, expect, it } from 'vitest';
import { MalformedRecordError, toStreamEvent, type CommitOp } from './bluesky-events';

const ANN = 'did:plc:annannannannannannannann';
const BOB = 'did:plc:bobbobbobbobbobbobbobbob';
const HQ = 'did:plc:hqhqhqhqhqhqhqhqhqhqhqhq';
const TIME = '2026-11-24T10:00:00.000Z';
const bobPost = `at://${BOB}/app.bsky.feed.post/3kbobpost`;

const op = (collection: string, record: unknown, event: CommitOp['event'] = 'create'): CommitOp => ({
  event,
  did: ANN,
  collection,
  rkey: '3kannrec',
  record,
  time: TIME,
});

describe('Bluesky commit operations → the engine’s stream events', () => {
  it('a post: text, tags from facets and the record, mentions, reply parent and quoted post, commit time', () => {
    const event = toStreamEvent(
      op('app.bsky.feed.post', {
        $type: 'app.bsky.feed.post',
        text: 'hello @hq.test #Mana',
        createdAt: '2020-01-01T00:00:00.000Z', // written by the client: not trusted for the programme's clock
        tags: ['EarnMana'],
        facets: [
          {
            index: { byteStart: 6, byteEnd: 14 },
            features: [{ $type: 'app.bsky.richtext.facet#mention', did: HQ }],
          },
          {
            index: { byteStart: 15, byteEnd: 20 },
            features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'Mana' }],
          },
          {
            index: { byteStart: 0, byteEnd: 5 },
            features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://x' }],
          },
        ],
        reply: { root: { uri: bobPost, cid: 'c' }, parent: { uri: bobPost, cid: 'c' } },
        embed: {
          $type: 'app.bsky.embed.recordWithMedia',
          record: { record: { uri: bobPost, cid: 'c' } },
          media: { $type: 'app.bsky.embed.images', images: [] },
        },
      }),
    );
    expect(event).toEqual({
      type: 'post',
      id: `at://${ANN}/app.bsky.feed.post/3kannrec`,
      authorId: ANN,
      text: 'hello @hq.test #Mana',
      tags: ['EarnMana', 'Mana'],
      mentions: [HQ],
      createdAt: new Date(TIME),
      replyTo: { id: bobPost, authorId: BOB },
      quotes: { id: bobPost, authorId: BOB },
    });
  });

  it('a quote embeds a post record; an embedded list or feed is not a quote', () => {
    const quote = toStreamEvent(
      op('app.bsky.feed.post', {
        text: 'so true',
        createdAt: TIME,
        embed: { $type: 'app.bsky.embed.record', record: { uri: bobPost, cid: 'c' } },
      }),
    );
    expect(quote).toMatchObject({ type: 'post', replyTo: null, quotes: { id: bobPost, authorId: BOB } });
    const list = toStreamEvent(
      op('app.bsky.feed.post', {
        text: 'my list',
        createdAt: TIME,
        embed: {
          $type: 'app.bsky.embed.record',
          record: { uri: `at://${BOB}/app.bsky.graph.list/3k`, cid: 'c' },
        },
      }),
    );
    expect(list).toMatchObject({ type: 'post', quotes: null });
  });

  it('a like or repost keeps its claimed time when sane, and is never dated after its commit nor before 1970', () => {
    const subject = { uri: bobPost, cid: 'bafy' };
    const at = (collection: string, createdAt: string) =>
      (toStreamEvent(op(collection, { subject, createdAt })) as { createdAt: Date }).createdAt;
    expect(at('app.bsky.feed.like', '2026-11-24T09:30:00.000Z')).toEqual(
      new Date('2026-11-24T09:30:00.000Z'),
    );
    expect(at('app.bsky.feed.like', '+010000-01-01T00:00:00.000Z')).toEqual(new Date(TIME));
    expect(at('app.bsky.feed.repost', '2027-01-01T00:00:00.000Z')).toEqual(new Date(TIME));
    expect(at('app.bsky.feed.repost', '-000100-01-01T00:00:00.000Z')).toEqual(new Date(0));
  });

  it('likes and reposts name their subject post and its author; a like of a feed generator is skipped', () => {
    const subject = { uri: bobPost, cid: 'c' };
    expect(toStreamEvent(op('app.bsky.feed.like', { subject, createdAt: TIME }))).toEqual({
      type: 'like',
      id: `at://${ANN}/app.bsky.feed.like/3kannrec`,
      authorId: ANN,
      subject: { id: bobPost, authorId: BOB },
      createdAt: new Date(TIME),
    });
    expect(toStreamEvent(op('app.bsky.feed.repost', { subject, createdAt: TIME }))).toMatchObject({
      type: 'repost',
      subject: { id: bobPost },
    });
    const feed = { uri: `at://${BOB}/app.bsky.feed.generator/3k`, cid: 'c' };
    expect(toStreamEvent(op('app.bsky.feed.like', { subject: feed, createdAt: TIME }))).toBeNull();
  });

  it('deletions name the record; other collections are not read', () => {
    expect(toStreamEvent(op('app.bsky.feed.like', undefined, 'delete'))).toEqual({
      type: 'delete',
      id: `at://${ANN}/app.bsky.feed.like/3kannrec`,
      authorId: ANN,
    });
    expect(toStreamEvent(op('app.bsky.graph.follow', { subject: BOB, createdAt: TIME }))).toBeNull();
  });

  it('a malformed record is refused with a reason, never half-read', () => {
    expect(() => toStreamEvent(op('app.bsky.feed.post', { createdAt: TIME }))).toThrow(MalformedRecordError);
    expect(() => toStreamEvent(op('app.bsky.feed.post', { text: 'x', createdAt: 'yesterday' }))).toThrow(
      /not a datetime/,
    );
    expect(() => toStreamEvent(op('app.bsky.feed.like', { subject: 'bob', createdAt: TIME }))).toThrow(
      MalformedRecordError,
    );
    expect(() =>
      toStreamEvent(op('app.bsky.feed.post', { text: 'x', createdAt: TIME, tags: Array(9).fill('t') })),
    ).toThrow(MalformedRecordError);
  });
});
