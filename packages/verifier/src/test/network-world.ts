import { createHash } from 'node:crypto';
import type { RecordRef } from '@atproto/dev-env';
import { startAtprotoNetwork } from '../../../../apps/server/src/test/atproto-network';
import { encodeLedger, buildLedgerLines, type WorldMember, type WorldRecord } from './ledger-builder';
import { indexOf, startLedgerOrigin, type OriginState } from './ledger-origin';

type Did = `did:${string}:${string}`;
export const WEEK = '2026-W48';
export const LEDGER_PATH = `/api/ledger/${WEEK}/1`;

/**
 * The verifier's world on a real local AT Protocol network: an official account (manahq), members who post,
 * like, repost, reply and quote, and a programme origin (a small HTTP server) serving the index, the ledger built
 * from those records with the contract's canonical encoder, and the proofs the operator kept.
 */
export async function startVerifierWorld() {
  const net = await startAtprotoNetwork();
  const sc = net.network.getSeedClient();
  const did: Record<string, Did> = {};
  for (const name of ['manahq', 'alice', 'bob', 'carol', 'dan', 'eve']) {
    const account = await sc.createAccount(name, {
      handle: `${name}.test`,
      email: `${name}@example.test`,
      password: `${name}-password`,
    });
    did[name] = account.did as Did;
  }
  const state: OriginState = { index: null, ledgers: new Map(), proofs: new Map(), stall: new Set() };
  const origin = await startLedgerOrigin(state);

  /** The CID of a record, as its author's server has it now. */
  async function cidOf(uri: string): Promise<string> {
    const [, , repo, collection, rkey] = uri.split('/');
    const url = new URL('/xrpc/com.atproto.repo.getRecord', net.pdsUrl);
    url.search = new URLSearchParams({ repo: repo!, collection: collection!, rkey: rkey! }).toString();
    const answer = (await (await fetch(url)).json()) as { cid: string };
    return answer.cid;
  }

  /** The proof an operator keeps when it counts a record (com.atproto.sync.getRecord's CAR). */
  async function keepProof(uri: string): Promise<void> {
    const [, , repo, collection, rkey] = uri.split('/');
    const url = new URL('/xrpc/com.atproto.sync.getRecord', net.pdsUrl);
    url.search = new URLSearchParams({ did: repo!, collection: collection!, rkey: rkey! }).toString();
    const car = new Uint8Array(await (await fetch(url)).arrayBuffer());
    state.proofs?.set(uri, { cid: await cidOf(uri), car, capturedAt: '2026-11-29T12:00:00.000Z' });
  }

  async function record(kind: WorldRecord['kind'], author: string, uri: string): Promise<WorldRecord> {
    return { author, cid: await cidOf(uri), createdAt: '2026-11-24T12:00:00.000Z', kind, uri };
  }

  async function like(who: string, subject: RecordRef): Promise<WorldRecord> {
    return record('like', did[who]!, (await sc.like(did[who]!, subject)).toString());
  }

  async function deleteRecord(uri: string): Promise<void> {
    const [, , repo, collection, rkey] = uri.split('/');
    await sc.agent.com.atproto.repo.deleteRecord(
      { repo: repo!, collection: collection!, rkey: rkey! },
      { headers: sc.getHeaders(repo as Did) },
    );
  }

  /**
   * Serves a ledger and has the official account (or `by`) publish its hash (or `publish`'s, to publish another):
   * the index names the post's AT URI and CID.
   */
  async function serve(
    text: string,
    options: { publish?: string | false; indexSha?: string; by?: string } = {},
  ) {
    const sha = (bytes: string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const url = `${origin.url}${LEDGER_PATH}`;
    let published = null;
    if (options.publish !== false) {
      const made = await sc.post(
        did[options.by ?? 'manahq']!,
        `Week 48 of 2026: the board's ledger. Ledger: ${url} ${sha(options.publish ?? text)}`,
      );
      published = { uri: made.ref.uriStr, cid: made.ref.cidStr, at: '2026-12-09T00:00:00.000Z' };
    }
    state.index = indexOf({ week: WEEK, sha256: options.indexSha ?? sha(text), url, published });
    state.ledgers.set(LEDGER_PATH, text);
  }

  return {
    net,
    sc,
    did,
    state,
    origin,
    cidOf,
    keepProof,
    record,
    like,
    deleteRecord,
    serve,
    ledger: (members: WorldMember[]) => encodeLedger(buildLedgerLines({ members })),
    close: async () => {
      await origin.close();
      await net.close();
    },
  };
}

export type VerifierWorld = Awaited<ReturnType<typeof startVerifierWorld>>;

/**
 * The honest week the network tests verify: alice's two posts (a like by bob and by carol, carol's repost and dan's
 * reply on the first, dan's quote of the second, one like not traceable), her referral of dan, and bob's like of the
 * official account's post.
 */
export async function seedHonestWeek(w: VerifierWorld): Promise<{ members: WorldMember[]; p1: RecordRef }> {
  const { sc, did } = w;
  const p1 = (await sc.post(did.alice!, 'my #mana post')).ref;
  const p2 = (await sc.post(did.alice!, 'more mana')).ref;
  const official = (await sc.post(did.manahq!, 'Like this for Mana')).ref;
  const repost = await sc.repost(did.carol!, p1);
  const reply = (await sc.reply(did.dan!, p1, p1, 'nice mana')).ref;
  const quote = (await sc.post(did.dan!, 'look at this mana', undefined, undefined, p2)).ref;
  const bobsOfficialLike = (await sc.like(did.bob!, official)).toString();
  const members: WorldMember[] = [
    {
      author: did.alice!,
      handle: 'alice.test',
      firstTrackedAt: '2026-11-02T00:00:00.000Z',
      posts: [
        {
          post: p1.uriStr,
          createdAt: '2026-11-24T09:00:00.000Z',
          multiplier: 3,
          records: [
            await w.like('bob', p1),
            await w.like('carol', p1),
            { ...(await w.record('repost', did.carol!, repost.uriStr)) },
            await w.record('reply', did.dan!, reply.uriStr),
          ],
        },
        {
          post: p2.uriStr,
          createdAt: '2026-11-24T10:00:00.000Z',
          records: [await w.record('quote', did.dan!, quote.uriStr)],
          notTraceable: { likes: 1 },
        },
      ],
      referrals: [{ at: '2026-11-25T08:00:00.000Z', referee: did.dan! }],
    },
    {
      author: did.bob!,
      handle: 'bob.test',
      firstTrackedAt: '2026-11-20T00:00:00.000Z',
      interactions: [
        {
          at: '2026-11-26T00:00:00.000Z',
          kind: 'like',
          post: official.uriStr,
          record: bobsOfficialLike,
          cid: await w.cidOf(bobsOfficialLike),
        },
      ],
    },
  ];
  return { members, p1 };
}
