// The traffic written to a local PDS before its event stream is recorded (bench/lib/firehose-recording.ts): a fill
// giving a few accounts thousands of records each (deep MSTs: each later commit carries its path of tree nodes), in
// applyWrites batches of 200 (the PDS's limit); then two mixes of everyday traffic, one write per commit as apps
// write, with multi-op commits, deletions, follows, blocks, profile updates, handle changes (#identity) and
// deactivations (#account). Public: about 5 % of calls concern a tracked post (a like or repost of one, a reply to
// one, a post naming the programme), as on the public relay; programme: about half do (a busy programme's corner).
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import {
  apply,
  collectionOf,
  create,
  rkeyOf,
  withConcurrency,
  World,
  type Account,
  type Sc,
  type Write,
} from './firehose-writes';
import {
  blockRecord,
  followRecord,
  foreignDid,
  likeRecord,
  postRecord,
  profileRecord,
  repostRecord,
  seededRandom,
} from './firehose-records';

export type TrafficParams = {
  /** Accounts filled with `recordsEach` records (deep trees). */
  deepAccounts: number;
  recordsEach: number;
  /** Accounts with a profile only (many small repos, as most of the network). */
  lightAccounts: number;
  publicCalls: number;
  programmeCalls: number;
  seed: number;
};

export type SeqRange = { fromSeq: number; toSeq: number; ms: number; calls: number };
export type Traffic = {
  accounts: Account[];
  official: Account;
  /** Every post the programme tracks (by the official account, naming the hashtag), in creation order. */
  trackedPosts: string[];
  /** Each account's signing key (did:key), as its DID document names it: for signature checks in the bench. */
  signingKeys: Record<string, string>;
  phases: { fill: SeqRange; public: SeqRange; programme: SeqRange };
};

const BATCH = 200;

async function fill(
  sc: Sc,
  world: World,
  deep: Account[],
  official: Account,
  recordsEach: number,
): Promise<number> {
  let calls = 0;
  // The official account's own posts are tracked from the start.
  for (let i = 0; i < 3; i++) {
    const refs = await apply(
      sc,
      official.did,
      Array.from({ length: 10 }, () =>
        create('app.bsky.feed.post', postRecord(world.random, { tagged: true })),
      ),
    );
    world.tracked.push(...refs);
    calls++;
  }
  await withConcurrency(deep, 4, async (account) => {
    for (let done = 0; done < recordsEach; done += BATCH) {
      const writes: Write[] = [];
      const posts: boolean[] = [];
      for (let i = 0; i < Math.min(BATCH, recordsEach - done); i++) {
        const roll = world.random();
        const canRefer = world.untracked.length > 0;
        if (roll < 0.3 || !canRefer) {
          const tagged = world.random() < 0.02;
          posts.push(tagged);
          writes.push(create('app.bsky.feed.post', postRecord(world.random, { tagged })));
        } else if (roll < 0.75)
          writes.push(create('app.bsky.feed.like', likeRecord(world.pick(world.untracked))));
        else if (roll < 0.83)
          writes.push(create('app.bsky.feed.repost', repostRecord(world.pick(world.untracked))));
        else if (roll < 0.98)
          writes.push(create('app.bsky.graph.follow', followRecord(foreignDid(world.random))));
        else writes.push(create('app.bsky.graph.block', blockRecord(foreignDid(world.random))));
      }
      const refs = await apply(sc, account.did, writes);
      calls++;
      let p = 0;
      refs.forEach((ref, i) => {
        if (writes[i]?.collection !== 'app.bsky.feed.post') return;
        (posts[p++] ? world.tracked : world.untracked).push(ref);
      });
    }
  });
  return calls;
}

/** One call of a mix by `account`: a write about a tracked post with probability `share`, else everyday traffic. */
async function mixCall(
  sc: Sc,
  world: World,
  account: Account,
  official: Account,
  share: number,
): Promise<void> {
  const r = world.random;
  const did = account.did;
  const one = async (collection: string, value: Record<string, unknown>) => {
    const [ref] = await apply(sc, did, [create(collection, value)]);
    if (ref) world.remember(did, ref.uri);
    return ref;
  };
  if (r() < share) {
    const roll = r();
    if (roll < 0.45) await one('app.bsky.feed.like', likeRecord(world.pick(world.tracked)));
    else if (roll < 0.65) await one('app.bsky.feed.repost', repostRecord(world.pick(world.tracked)));
    else if (roll < 0.85) {
      const mention = r() < 0.3 ? official : undefined;
      const ref = await one('app.bsky.feed.post', postRecord(r, { tagged: !mention, mention }));
      if (ref) world.tracked.push(ref);
    } else await one('app.bsky.feed.post', postRecord(r, { reply: world.pick(world.tracked) }));
    return;
  }
  const roll = r();
  if (roll < 0.4) await one('app.bsky.feed.like', likeRecord(world.pick(world.untracked)));
  else if (roll < 0.5) await one('app.bsky.feed.repost', repostRecord(world.pick(world.untracked)));
  else if (roll < 0.66) {
    const ref = await one('app.bsky.feed.post', postRecord(r));
    if (ref) world.untracked.push(ref);
  } else if (roll < 0.78) await one('app.bsky.graph.follow', followRecord(foreignDid(r)));
  else if (roll < 0.8) await one('app.bsky.graph.block', blockRecord(foreignDid(r)));
  else if (roll < 0.87) {
    // Undo something of one's own (unlike, unfollow, delete a post) — never a tracked post, so it stays public.
    const own = world.deletable.get(did) ?? [];
    const uri = own.splice(Math.floor(r() * own.length), 1)[0];
    if (!uri) return mixCall(sc, world, account, official, 0);
    await apply(sc, did, [
      { $type: 'com.atproto.repo.applyWrites#delete', collection: collectionOf(uri), rkey: rkeyOf(uri) },
    ]);
  } else if (roll < 0.89) {
    await apply(sc, did, [
      {
        $type: 'com.atproto.repo.applyWrites#update',
        collection: 'app.bsky.actor.profile',
        rkey: 'self',
        value: profileRecord(r),
      },
    ]);
  } else if (roll < 0.98) {
    // A multi-op commit: a thread of posts, or a batch of likes and follows (as clients do for "follow all").
    const n = 2 + Math.floor(r() * 5);
    const writes = Array.from({ length: n }, () =>
      r() < 0.5
        ? create('app.bsky.graph.follow', followRecord(foreignDid(r)))
        : create('app.bsky.feed.like', likeRecord(world.pick(world.untracked))),
    );
    for (const ref of await apply(sc, did, writes)) world.remember(did, ref.uri);
  } else if (roll < 0.99) {
    account.handle =
      `${account.handle.split('.')[0]?.replace(/-\d+$/, '')}-${Math.floor(r() * 1e6)}.test` as const;
    await sc.updateHandle(did, account.handle);
  } else {
    const options = { headers: sc.getHeaders(did), encoding: 'application/json' } as const;
    await sc.agent.com.atproto.server.deactivateAccount({}, options);
    await sc.agent.com.atproto.server.activateAccount(undefined, { headers: sc.getHeaders(did) });
  }
}

async function mix(
  sc: Sc,
  world: World,
  accounts: { deep: Account[]; light: Account[] },
  official: Account,
  calls: number,
  share: number,
): Promise<void> {
  // Each worker writes for its own accounts, so a deactivation never races another write of the same account.
  // Seven calls in ten come from the deep repositories (active people have large repos), the rest from the many
  // small ones.
  const workers = 6;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const deep = accounts.deep.filter((_, i) => i % workers === w);
      const light = accounts.light.filter((_, i) => i % workers === w);
      for (let c = w; c < calls; c += workers) {
        const mine = deep.length && (world.random() < 0.7 || !light.length) ? deep : light;
        await mixCall(sc, world, world.pick(mine), official, share);
      }
    }),
  );
}

export async function writeTraffic(network: TestNetworkNoAppView, params: TrafficParams): Promise<Traffic> {
  const sc = network.getSeedClient();
  const world = new World(seededRandom(params.seed));
  const seq = async () => (await network.pds.ctx.sequencer.curr()) ?? 0;
  const makeAccount = async (name: string): Promise<Account> => {
    const handle = `${name}.test` as const;
    const { did } = await sc.createAccount(name, {
      handle,
      email: `${name}@example.test`,
      password: `${name}-pw`,
    });
    await apply(sc, did, [
      { ...create('app.bsky.actor.profile', profileRecord(world.random)), rkey: 'self' },
    ]);
    return { did, handle };
  };
  const official = await makeAccount('benchhq');
  const deep: Account[] = [];
  for (let i = 0; i < params.deepAccounts; i++) deep.push(await makeAccount(`deep${i}`));
  const light: Account[] = [];
  for (let i = 0; i < params.lightAccounts; i++) light.push(await makeAccount(`light${i}`));

  const phase = async (work: () => Promise<number>): Promise<SeqRange> => {
    const fromSeq = (await seq()) + 1;
    const started = performance.now();
    const calls = await work();
    return { fromSeq, toSeq: await seq(), ms: performance.now() - started, calls };
  };
  const everyone = [...deep, ...light];
  const fillRange = await phase(() => fill(sc, world, deep, official, params.recordsEach));
  const publicRange = await phase(async () => {
    await mix(sc, world, { deep, light }, official, params.publicCalls, 0.05);
    return params.publicCalls;
  });
  const programmeRange = await phase(async () => {
    await mix(sc, world, { deep, light }, official, params.programmeCalls, 0.5);
    return params.programmeCalls;
  });
  const signingKeys: Record<string, string> = {};
  for (const { did } of [official, ...everyone]) {
    signingKeys[did] = await network.pds.ctx.idResolver.did.resolveAtprotoKey(did);
  }
  return {
    accounts: [official, ...everyone],
    official,
    trackedPosts: world.tracked.map((ref) => ref.uri),
    signingKeys,
    phases: { fill: fillRange, public: publicRange, programme: programmeRange },
  };
}
