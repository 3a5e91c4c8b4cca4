// Frame i of the distinct-traffic stream, as a relay sends it (sync 1.1 `#commit`, `#identity`, `#account`): a
// commit carries its records' blocks, the path of Merkle search tree nodes from the signed root to each op's key
// (as many levels as a repository of thousands of records has, neighbours included, so a frame weighs what a real
// one does), and the commit block signed with the account's own P-256 key (low-S, as atproto requires), so a
// consumer in verified mode proves each op and checks each signature as it would on the network.
import type crypto from 'node:crypto';
import { encode, toBytes } from '@atcute/cbor';
import { CidLinkWrapper } from '@atcute/cid';
import { createKey, plantedAuthor, type Planted, type PlantedPlan } from './distinct-planted';
import { car, sign, treePath, type Block, type Op, type OpWithCid } from './distinct-tree';
import {
  cidBytes,
  fakeCid,
  frameRandom,
  genericPost,
  otherRecord,
  postUri,
  programmePost,
  strongRef,
  subjectAgeMicros,
  type World,
} from './distinct-records';
import {
  accountOf,
  didOf,
  hash32,
  handleOf,
  keySlot,
  microsAt,
  privateKeyOf,
  shapeOf,
  tid,
  type DistinctParams,
} from './distinct-traffic';

export type BuiltFrame = { bytes: Uint8Array; timeAt: number };

/** Builds frames of one stream; signing keys are kept per builder (a worker's range of frames). */
export class FrameBuilder {
  private readonly keys = new Map<number, crypto.KeyObject>();
  private readonly world: World;
  private readonly header = encode({ op: 1, t: '#commit' });

  constructor(
    private readonly p: DistinctParams,
    private readonly start: number,
    private readonly plan: Pick<PlantedPlan, 'at'>,
  ) {
    this.world = { seed: p.seed, accounts: Math.round(p.frames * p.newShare) };
  }

  private key(account: number): crypto.KeyObject {
    const slot = keySlot(this.p.seed, account);
    let key = this.keys.get(slot);
    if (!key) {
      if (this.keys.size > 50_000) this.keys.clear();
      key = privateKeyOf(this.p.seed, account);
      this.keys.set(slot, key);
    }
    return key;
  }

  build(i: number): BuiltFrame {
    const { p } = this;
    const micros = microsAt(p, this.start, i);
    const time = new Date(micros / 1000).toISOString();
    const random = frameRandom(hash32(p.seed, i, 99));
    const planted = this.plan.at.get(i);
    if (planted)
      return this.commit(
        i,
        plantedAuthor(planted, i),
        this.plantedOps(i, planted, micros, time, random),
        micros,
        time,
        random,
      );
    const shape = shapeOf(p, i);
    const did = didOf(p.seed, shape.account);
    if (shape.kind !== 'commit')
      return shape.kind === 'identity'
        ? this.other('#identity', { did, handle: handleOf(shape.account), seq: i + 1, time })
        : this.other('#account', { active: random() < 0.7, did, seq: i + 1, time });
    const ops = shape.ops.map((op, k): Op => {
      const collection = op.collection;
      if (op.action === 'delete')
        return {
          action: 'delete',
          micros,
          path: `${collection}/${tid(micros - subjectAgeMicros(random), k)}`,
        };
      const rkey = collection === 'app.bsky.actor.profile' ? 'self' : createKey(p, this.start, i, k);
      return {
        action: op.action,
        micros,
        path: `${collection}/${rkey}`,
        record: this.record(collection, i, micros, time, random),
      };
    });
    return this.commit(i, shape.account, ops, micros, time, random);
  }

  private record(
    collection: string,
    i: number,
    micros: number,
    createdAt: string,
    random: () => number,
  ): object {
    const w = this.world;
    if (collection === 'app.bsky.feed.post') return genericPost(w, random, createdAt, micros);
    if (collection === 'app.bsky.feed.like' || collection === 'app.bsky.feed.repost') {
      // A fifth of them name a post of the last half a minute of the stream itself, the rest older posts.
      const j = i - 1 - Math.floor(random() * 30_000);
      const recent = j >= 0 && random() < 0.2 ? shapeOf(this.p, j) : null;
      const uri =
        recent?.kind === 'commit' &&
        recent.ops[0]?.collection === 'app.bsky.feed.post' &&
        recent.ops[0].action === 'create'
          ? `at://${didOf(w.seed, accountOf(this.p, j))}/app.bsky.feed.post/${createKey(this.p, this.start, j)}`
          : postUri(w, random, micros);
      return { $type: collection, createdAt, subject: strongRef(uri, random) };
    }
    return otherRecord(w, random, collection, createdAt, micros);
  }

  private plantedOps(i: number, planted: Planted, micros: number, time: string, random: () => number): Op[] {
    const { p, start, plan } = this;
    const rkey = createKey(p, start, i);
    if (planted.type === 'post')
      return [
        {
          action: 'create',
          micros,
          path: `app.bsky.feed.post/${rkey}`,
          record: programmePost(this.world, random, time, planted.naming),
        },
      ];
    const author = plantedAuthor(plan.at.get(planted.post) ?? { type: 'post', naming: 'tag' }, planted.post);
    const subject = strongRef(
      `at://${didOf(p.seed, author)}/app.bsky.feed.post/${createKey(p, start, planted.post)}`,
      random,
    );
    switch (planted.type) {
      case 'like':
      case 'repost':
        return [
          {
            action: 'create',
            micros,
            path: `app.bsky.feed.${planted.type}/${rkey}`,
            record: { $type: `app.bsky.feed.${planted.type}`, createdAt: time, subject },
          },
        ];
      case 'reply':
        return [
          {
            action: 'create',
            micros,
            path: `app.bsky.feed.post/${rkey}`,
            record: {
              ...genericPost(this.world, () => 0.5, time, micros),
              reply: { parent: subject, root: subject },
            },
          },
        ];
      case 'quote':
        return [
          {
            action: 'create',
            micros,
            path: `app.bsky.feed.post/${rkey}`,
            record: {
              $type: 'app.bsky.feed.post',
              createdAt: time,
              embed: { $type: 'app.bsky.embed.record', record: subject },
              langs: ['en'],
              text: 'quoting this',
            },
          },
        ];
      case 'unlike':
      case 'unrepost': {
        // The like's own account takes it back (planted accounts are numbered by the frame that brought them).
        const collection = planted.type === 'unlike' ? 'app.bsky.feed.like' : 'app.bsky.feed.repost';
        return [{ action: 'delete', micros, path: `${collection}/${createKey(p, start, planted.record)}` }];
      }
    }
  }

  private commit(
    i: number,
    account: number,
    ops: Op[],
    micros: number,
    time: string,
    random: () => number,
  ): BuiltFrame {
    const { p } = this;
    const did = didOf(p.seed, account);
    const withCids: OpWithCid[] = ops;
    const blocks: Block[] = [];
    for (const op of withCids) {
      if (!op.record) continue;
      const bytes = encode(op.record);
      const cid = cidBytes(bytes);
      op.cid = new CidLinkWrapper(cid);
      blocks.push({ cid, bytes });
    }
    const levels = 4 + (hash32(p.seed, account, 6) % 3);
    const data = treePath(random, withCids, levels, blocks);
    const rev = tid(micros, hash32(p.seed, account, 8) & 1023);
    const unsigned = { data, did, prev: null, rev, version: 3 };
    // Signed commits: a planted account's own key, anyone else's too (a verifying reader can check them all).
    const sig = sign(this.key(account), encode(unsigned));
    const commitBytes = encode({ ...unsigned, sig: toBytes(sig) });
    const commitCid = cidBytes(commitBytes);
    const body = {
      blobs: [],
      blocks: toBytes(car([{ cid: commitCid, bytes: commitBytes }, ...blocks])),
      commit: new CidLinkWrapper(commitCid),
      ops: withCids.map((op) => ({
        action: op.action,
        cid: op.cid ?? null,
        path: op.path,
        ...(op.action === 'create' ? {} : { prev: fakeCid(random) }),
      })),
      prevData: fakeCid(random),
      rebase: false,
      repo: did,
      rev,
      seq: i + 1,
      since: tid(micros - subjectAgeMicros(random), 0),
      time,
      tooBig: false,
    };
    return this.frame(this.header, body);
  }

  private other(t: string, body: object): BuiltFrame {
    return this.frame(encode({ op: 1, t }), body);
  }

  private frame(header: Uint8Array, body: object): BuiltFrame {
    const bytes = Buffer.concat([header, encode(body)]);
    const timeAt = bytes.indexOf(TIME_KEY);
    if (timeAt < 0) throw new Error('a frame without its time');
    return { bytes, timeAt: timeAt + TIME_KEY.length };
  }
}

/** "time" followed by the head of a 24-byte text (an ISO date with milliseconds): the relay rewrites those bytes. */
export const TIME_KEY = Buffer.from([0x64, 0x74, 0x69, 0x6d, 0x65, 0x78, 0x18]);
