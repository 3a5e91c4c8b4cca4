import { encode, toBytes } from '@atcute/cbor';
import * as CID from '@atcute/cid';
import { parseDidKey, Secp256k1PrivateKeyExportable } from '@atcute/crypto';
import { describe, expect, it } from 'vitest';
import { verifyRecordProof } from '@manaboard/verifier';
import { StreamInterest } from '../../social/stream-interest';
import type { StreamEvent } from '../../social/stream-source';
import { createFrameReader } from './bluesky-frames';
import { block, car, frame, like } from './bluesky-frames.test-support';

const BOB = 'did:plc:bob';
const TRACKED = 'at://did:plc:ann/app.bsky.feed.post/tracked';
const PATH = 'app.bsky.feed.like/a';

/** Bob's signed commit creating a like at PATH; `withTree: false` leaves the tree's node out of the frame. */
async function likeFrame(signer: Secp256k1PrivateKeyExportable, withTree = true) {
  const record = await like(TRACKED);
  const tree = await block({
    l: null,
    e: [{ p: 0, k: toBytes(new TextEncoder().encode(PATH)), v: CID.toCidLink(record.cid), t: null }],
  });
  const unsigned = { did: BOB, version: 3, data: CID.toCidLink(tree.cid), rev: '3kabc', prev: null };
  const commit = await block({ ...unsigned, sig: toBytes(await signer.sign(encode(unsigned))) });
  const blocks = withTree ? [commit, tree, record] : [commit, record];
  return {
    cid: CID.toString(record.cid),
    bytes: frame(
      { op: 1, t: '#commit' },
      {
        seq: 1,
        repo: BOB,
        commit: CID.toCidLink(commit.cid),
        rev: '3kabc',
        blocks: toBytes(await car(blocks)),
        ops: [{ action: 'create', path: PATH, cid: CID.toCidLink(record.cid) }],
        time: '2026-01-01T00:00:01.000Z',
      },
    ),
  };
}

function interestIn(tracked: string[]) {
  const interest = new StreamInterest();
  interest.load({ tracked, people: [], officials: [], names: () => false });
  return interest;
}

async function eventsOf(bytes: Uint8Array, interest: StreamInterest): Promise<StreamEvent[]> {
  const result = await createFrameReader().read(bytes, interest);
  if (result.kind !== 'events') throw new Error(`not read: ${JSON.stringify(result)}`);
  return result.events;
}

describe("a kept record's proof, built from its commit frame", () => {
  it('is a CAR the verifier accepts with the author’s key, and only for a record the interest keeps', async () => {
    const key = await Secp256k1PrivateKeyExportable.createKeypair();
    const { bytes, cid } = await likeFrame(key);
    const [event] = await eventsOf(bytes, interestIn([TRACKED]));
    const proof = event && 'proof' in event ? event.proof : undefined;
    expect(proof).toBeInstanceOf(Uint8Array);
    const check = (publicKey: string) =>
      verifyRecordProof({
        car: proof ?? new Uint8Array(),
        did: BOB,
        collection: 'app.bsky.feed.like',
        rkey: 'a',
        key: parseDidKey(publicKey),
      });
    expect(await check(await key.exportPublicKey('did'))).toMatchObject({ found: true, cid });
    const stranger = await Secp256k1PrivateKeyExportable.createKeypair();
    await expect(check(await stranger.exportPublicKey('did'))).rejects.toThrow(/signature/);

    // A like of a post nobody follows is passed over: no event, so no proof is built.
    expect(await eventsOf(bytes, interestIn([]))).toEqual([]);
  });

  it('is left out, the record still kept, when the frame lacks a node of the path', async () => {
    const key = await Secp256k1PrivateKeyExportable.createKeypair();
    const events = await eventsOf((await likeFrame(key, false)).bytes, interestIn([TRACKED]));
    expect(events.map((e) => e.type)).toEqual(['like']);
    expect(events[0]).not.toHaveProperty('proof');
  });
});
