import { describe, expect, it } from 'vitest';
import * as CAR from '@atcute/car';
import * as CBOR from '@atcute/cbor';
import * as CID from '@atcute/cid';
import { P256PrivateKeyExportable, parseDidKey, type FoundPublicKey } from '@atcute/crypto';
import { MemoryBlockStore, NodeStore, NodeWrangler } from '@atcute/mst';
import { openRepository, ProofError, verifyRecordProof } from './proof';

const DID = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa';
const OTHER = 'did:plc:bbbbbbbbbbbbbbbbbbbbbbbb';
const POST = `at://${OTHER}/app.bsky.feed.post/3lb2c3d4e5f6g`;
const REV = '3lbcdefghij22';

type Block = { cid: string; bytes: Uint8Array };

/**
 * A whole repository as `com.atproto.sync.getRepo` answers it, built with the same libraries the proofs are read
 * with: `likes` like records in a tree (enough for several layers), a commit by `did` signed with `signer`.
 */
async function buildRepository(options: {
  likes: number;
  did?: string;
  signer: P256PrivateKeyExportable;
  change?: (blocks: Block[], root: string) => void;
}) {
  const store = new MemoryBlockStore();
  const wrangler = new NodeWrangler(new NodeStore(store));
  const records: Block[] = [];
  const rkeys: string[] = [];
  let data: string | null = null;
  for (let i = 0; i < options.likes; i++) {
    const rkey = `3l${String(i).padStart(11, '2').replace(/[01]/g, 'a')}`;
    const bytes = CBOR.encode({
      $type: 'app.bsky.feed.like',
      subject: { uri: POST, cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' },
      createdAt: '2026-11-24T12:00:00.000Z',
    });
    const cid = CID.toString(await CID.create(CID.CODEC_DCBOR, bytes));
    records.push({ cid, bytes });
    rkeys.push(rkey);
    data = await wrangler.putRecord(data, `app.bsky.feed.like/${rkey}`, { $link: cid });
  }
  const unsigned = {
    did: options.did ?? DID,
    version: 3,
    data: { $link: data! },
    rev: REV,
    prev: null,
  };
  const sig = await options.signer.sign(CBOR.encode(unsigned));
  const commitBytes = CBOR.encode({ ...unsigned, sig: CBOR.toBytes(sig) });
  const root = CID.toString(await CID.create(CID.CODEC_DCBOR, commitBytes));
  const blocks: Block[] = [
    { cid: root, bytes: commitBytes },
    ...[...store.blocks].map(([cid, bytes]) => ({ cid, bytes })),
    ...records,
  ];
  options.change?.(blocks, root);
  const chunks: Uint8Array[] = [];
  const entries = blocks.map((b) => ({ cid: CID.fromString(b.cid).bytes, data: b.bytes }));
  for await (const chunk of CAR.writeCarStream([{ $link: root }], entries)) chunks.push(chunk);
  return { car: Buffer.concat(chunks), rkeys, records };
}

async function keys() {
  const signer = await P256PrivateKeyExportable.createKeypair();
  const key: FoundPublicKey = parseDidKey(await signer.exportPublicKey('did'));
  return { signer, key };
}

describe('a whole repository as proof (com.atproto.sync.getRepo)', () => {
  it('finds each record with its CID under the commit, and proves a path that is not there absent', async () => {
    const { signer, key } = await keys();
    const { car, rkeys, records } = await buildRepository({ likes: 300, signer });
    const repository = await openRepository({ car, did: DID, key });
    expect(repository.rev).toBe(REV);
    expect(repository.bytes).toBe(car.byteLength);
    for (const i of [0, 1, 150, 299]) {
      const proven = await repository.find('app.bsky.feed.like', rkeys[i]!);
      expect(proven).toMatchObject({ found: true, cid: records[i]!.cid, rev: REV });
      expect(proven.found && proven.record).toMatchObject({
        $type: 'app.bsky.feed.like',
        subject: { uri: POST },
      });
    }
    expect(await repository.find('app.bsky.feed.like', '3lzzzzzzzzzzz')).toEqual({ found: false, rev: REV });
    expect(await repository.find('app.bsky.feed.repost', rkeys[0]!)).toEqual({ found: false, rev: REV });
    // The per-record check is the same opening and one find.
    await expect(
      verifyRecordProof({ car, did: DID, collection: 'app.bsky.feed.like', rkey: rkeys[7]!, key }),
    ).resolves.toMatchObject({ found: true, cid: records[7]!.cid });
  });

  it('refuses a repository of more blocks than it may index (a CAR of many tiny blocks costs memory beyond its bytes)', async () => {
    const { signer, key } = await keys();
    const { car } = await buildRepository({ likes: 300, signer });
    const { blocks } = await openRepository({ car, did: DID, key });
    await expect(openRepository({ car, did: DID, key, maxBlocks: blocks })).resolves.toMatchObject({
      blocks,
    });
    await expect(openRepository({ car, did: DID, key, maxBlocks: blocks - 1 })).rejects.toThrow(
      new ProofError(`the repository holds more than ${blocks - 1} blocks, more than its size allows`),
    );
  });

  it('refuses a block whose bytes do not hash to its CID', async () => {
    const { signer, key } = await keys();
    const { car, records } = await buildRepository({
      likes: 20,
      signer,
      change: (blocks) => {
        const record = blocks.at(-1)!;
        record.bytes = CBOR.encode({ $type: 'app.bsky.feed.like', subject: { uri: 'at://someone/else' } });
      },
    });
    await expect(openRepository({ car, did: DID, key })).rejects.toThrow(
      new ProofError(`a block of the proof does not hash to its CID (${records.at(-1)!.cid})`),
    );
  });

  it("refuses a commit of another account, and one whose signature does not hold with the account's key", async () => {
    const { signer, key } = await keys();
    const other = await buildRepository({ likes: 5, did: OTHER, signer });
    await expect(openRepository({ car: other.car, did: DID, key })).rejects.toThrow(
      new ProofError(`the proof's commit is of ${OTHER}, not ${DID}`),
    );

    const stranger = await keys();
    const { car } = await buildRepository({ likes: 5, signer: stranger.signer });
    await expect(openRepository({ car, did: DID, key })).rejects.toThrow(
      new ProofError("the commit's signature does not hold with the account's #atproto key"),
    );
    // Nor with the key in force at its rev, when the account had another before.
    await expect(openRepository({ car, did: DID, key, keyAt: async () => key })).rejects.toThrow(
      /^the commit's signature holds neither with the account's #atproto key nor with the key in force at 20\d\d-/,
    );
    // The key in force then does hold: signed before a rotation.
    await expect(
      openRepository({ car, did: DID, key, keyAt: async () => stranger.key }),
    ).resolves.toMatchObject({ rev: REV });
  });

  it('says a tree that lacks the nodes on a path proves nothing of it', async () => {
    const { signer, key } = await keys();
    let dropped = '';
    const { car, rkeys } = await buildRepository({
      likes: 300,
      signer,
      change: (blocks, root) => {
        // Keep the commit and the records; drop every tree node but the top one.
        const commit = CBOR.decode(blocks[0]!.bytes) as { data: CID.CidLink };
        for (let i = blocks.length - 1; i > 0; i--) {
          const block = blocks[i]!;
          const isNode = typeof (CBOR.decode(block.bytes) as { e?: unknown }).e === 'object';
          if (isNode && block.cid !== commit.data.$link && block.cid !== root) {
            dropped ||= block.cid;
            blocks.splice(i, 1);
          }
        }
      },
    });
    expect(dropped).not.toBe('');
    const repository = await openRepository({ car, did: DID, key });
    await expect(repository.find('app.bsky.feed.like', rkeys[150]!)).rejects.toThrow(
      new ProofError(`the proof lacks a tree node on the path to app.bsky.feed.like/${rkeys[150]}`),
    );
  });
});
