// The writes of the recorded stream's traffic (bench/lib/firehose-traffic.ts): one applyWrites call is one commit
// on the PDS, and the generation's shared state (which posts exist, which records each account may delete).
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import type { StrongRef } from './firehose-records';

export type Did = `did:${string}:${string}`;
export type Account = { did: Did; handle: `${string}.${string}` };

export type Write =
  | {
      $type: 'com.atproto.repo.applyWrites#create';
      collection: string;
      rkey?: string;
      value: Record<string, unknown>;
    }
  | {
      $type: 'com.atproto.repo.applyWrites#update';
      collection: string;
      rkey: string;
      value: Record<string, unknown>;
    }
  | { $type: 'com.atproto.repo.applyWrites#delete'; collection: string; rkey: string };

export type Sc = ReturnType<TestNetworkNoAppView['getSeedClient']>;

export const create = (collection: string, value: Record<string, unknown>): Write => ({
  $type: 'com.atproto.repo.applyWrites#create',
  collection,
  value,
});

/** One applyWrites call (one commit); the created records' refs, in order. */
export async function apply(sc: Sc, did: Did, writes: Write[]): Promise<StrongRef[]> {
  const res = await sc.agent.com.atproto.repo.applyWrites(
    { repo: did, writes, validate: true },
    { headers: sc.getHeaders(did), encoding: 'application/json' },
  );
  const refs: StrongRef[] = [];
  for (const result of res.data.results ?? []) {
    if ('uri' in result && 'cid' in result) refs.push({ uri: result.uri, cid: result.cid });
  }
  return refs;
}

/** Shared state of a generation: the posts one may like, and who owns what may be deleted later. */
export class World {
  readonly tracked: StrongRef[] = [];
  readonly untracked: StrongRef[] = [];
  readonly deletable = new Map<Did, string[]>();
  constructor(readonly random: () => number) {}
  pick<T>(list: readonly T[]): T {
    const item = list[Math.floor(this.random() * list.length)];
    if (item === undefined) throw new Error('picked from an empty list');
    return item;
  }
  remember(did: Did, uri: string): void {
    const list = this.deletable.get(did) ?? [];
    list.push(uri);
    this.deletable.set(did, list);
  }
}

export async function withConcurrency<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++];
        if (item !== undefined) await work(item);
      }
    }),
  );
}

export const rkeyOf = (uri: string) => uri.slice(uri.lastIndexOf('/') + 1);
export const collectionOf = (uri: string) => uri.split('/')[3] ?? '';
