import { describe, expect, it } from 'vitest';
import type { Edge } from './stream-events';
import { Orphans } from './stream-orphans';

const like = (id: string, proof?: Uint8Array): Edge => ({
  id,
  kind: 'like',
  authorId: 'did:plc:liker',
  subject: { id: 'at://did:plc:author/app.bsky.feed.post/3kpost', authorId: 'did:plc:author' },
  createdAt: new Date('2026-11-28T00:00:00Z'),
  seenAt: 0,
  cid: 'bafyrecord',
  ...(proof ? { proof } : {}),
});

describe('Orphans', () => {
  it('keeps a waiting edge’s proof after the batch it came in gives its bytes back', () => {
    const bytes = [0xa1, 0x01, 0x02, 0x03, 0x04];
    // A proof as it crosses from the stream thread: a view of a buffer of its own, freed once the batch is stored.
    const crossed = new Uint8Array(new ArrayBuffer(16), 4, bytes.length);
    crossed.set(bytes);
    const orphans = new Orphans();
    orphans.add(like('at://did:plc:liker/app.bsky.feed.like/3kone', crossed));
    orphans.add(like('at://did:plc:liker/app.bsky.feed.like/3ktwo'));
    (crossed.buffer as ArrayBuffer & { transfer: (length: number) => ArrayBuffer }).transfer(0);
    expect(crossed.length).toBe(0);
    const waiting = orphans.waitingFor('at://did:plc:author/app.bsky.feed.post/3kpost') ?? [];
    expect(waiting.map((e) => (e.proof ? [...e.proof] : null))).toEqual([bytes, null]);
    expect(orphans.size).toBe(2);
  });
});
