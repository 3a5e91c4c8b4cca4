import { encode, toBytes } from '@atcute/cbor';
import * as CID from '@atcute/cid';
import { Secp256k1PrivateKeyExportable } from '@atcute/crypto';
import { describe, expect, it } from 'vitest';
import { StreamInterest } from '../../social/stream-interest';
import { createFrameReader } from './bluesky-frames';
import { block, car, frame, like } from './bluesky-frames.test-support';
import { BlueskyCommitVerifier } from './bluesky-verify';

const BOB = 'did:plc:bob';
const TRACKED = 'at://did:plc:ann/app.bsky.feed.post/tracked';
const PATH = 'app.bsky.feed.like/a';

/** A commit of Bob's liking the tracked post, signed with `signer`: its tree holds the like at PATH. */
async function signedFrame(signer: Secp256k1PrivateKeyExportable, tamper: 'none' | 'sig' | 'op' = 'none') {
  const record = await like(TRACKED);
  // Another like of the tracked post, one the signed tree does not hold (what a forging relay would slip in).
  const other = await like(TRACKED, '2026-01-02T00:00:00.000Z');
  const tree = await block({
    l: null,
    e: [{ p: 0, k: toBytes(new TextEncoder().encode(PATH)), v: CID.toCidLink(record.cid), t: null }],
  });
  const unsigned = { did: BOB, version: 3, data: CID.toCidLink(tree.cid), rev: '3kabc', prev: null };
  const sig = await signer.sign(encode(unsigned));
  if (tamper === 'sig') sig[5] = (sig[5] ?? 0) ^ 0xff;
  const commit = await block({ ...unsigned, sig: toBytes(sig) });
  // 'op': the op names a record the signed tree does not hold (a relay's forgery).
  const claimed = tamper === 'op' ? other : record;
  return frame(
    { op: 1, t: '#commit' },
    {
      seq: 1,
      repo: BOB,
      commit: CID.toCidLink(commit.cid),
      rev: '3kabc',
      blocks: toBytes(await car([commit, tree, record, other])),
      ops: [{ action: 'create', path: PATH, cid: CID.toCidLink(claimed.cid) }],
      time: '2026-01-01T00:00:01.000Z',
    },
  );
}

/** A verified-mode reader whose accounts' key is `key`'s, counting how often it is resolved; and a stranger's key. */
async function verifyingReader() {
  const key = await Secp256k1PrivateKeyExportable.createKeypair();
  const stranger = await Secp256k1PrivateKeyExportable.createKeypair();
  const didKey = await key.exportPublicKey('did');
  let resolved = 0;
  const reader = createFrameReader({
    verifier: new BlueskyCommitVerifier({ plcUrl: 'http://unused', allowHttp: false }, () => {
      resolved++;
      return Promise.resolve(didKey);
    }),
  });
  return { key, stranger, reader, resolved: () => resolved };
}

describe('verified mode (BLUESKY_VERIFY_COMMITS)', () => {
  it("keeps a commit signed with the account's key, skips a bad signature and an op the signed tree does not hold", async () => {
    const { key, stranger, reader, resolved } = await verifyingReader();
    const interest = new StreamInterest();
    interest.load({ tracked: [TRACKED], people: [], officials: [], names: () => false });
    const ok = await reader.read(await signedFrame(key), interest);
    expect(ok.kind === 'events' ? ok.events.map((e) => e.type) : ok).toEqual(['like']);
    // The key is kept: a second commit does not resolve it again.
    await reader.read(await signedFrame(key), interest);
    expect(resolved()).toBe(1);
    expect(await reader.read(await signedFrame(key, 'sig'), interest)).toMatchObject({
      kind: 'skip',
      reason: 'bad-signature',
      seq: 1,
    });
    // A signature by another key: read again once (a rotated key), then skipped.
    expect(await reader.read(await signedFrame(stranger), interest)).toMatchObject({
      reason: 'bad-signature',
    });
    expect(await reader.read(await signedFrame(key, 'op'), interest)).toMatchObject({
      kind: 'skip',
      reason: 'bad-signature',
      detail: `${PATH}: the op is not what the signed tree holds`,
    });
  });

  it('checks only commits the programme keeps something of: one that concerns nobody moves the cursor unchecked', async () => {
    const { stranger, reader, resolved } = await verifyingReader();
    const interest = new StreamInterest();
    // The liked post is not tracked: nothing of the commit would be stored, whoever signed it.
    interest.load({ tracked: [], people: [], officials: [], names: () => false });
    expect(await reader.read(await signedFrame(stranger), interest)).toMatchObject({
      kind: 'events',
      seq: 1,
      events: [],
    });
    expect(resolved()).toBe(0);
    // Once the post is tracked, the same forged commit is checked and skipped.
    interest.add([TRACKED], []);
    expect(await reader.read(await signedFrame(stranger), interest)).toMatchObject({
      kind: 'skip',
      reason: 'bad-signature',
    });
    expect(resolved()).toBeGreaterThan(0);
  });
});
