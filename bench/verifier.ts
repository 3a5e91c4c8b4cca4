// The verifier against a local AT Protocol network (issue 30's goal): records checked with their repository proofs
// against the yardstick of fetching the same records without proofs (com.atproto.repo.getRecord, JSON), at the
// same concurrency, interleaved rounds, median of ratios. The subject is the default mode (an author with many
// records: its whole repository once, com.atproto.sync.getRepo); per-record proofs (com.atproto.sync.getRecord:
// CAR, signature, tree path, CID; --proofs record) are measured beside it in the same rounds.
import { createHash } from 'node:crypto';
import { testEnv } from '../apps/server/src/config/test-env';
import { startAtprotoNetwork } from '../apps/server/src/test/atproto-network';
import { Http } from '../packages/verifier/src/http';
import { verifyLedger } from '../packages/verifier/src/verify';
import {
  buildLedgerLines,
  defaultRules,
  encodeLedger,
  type WorldMember,
} from '../packages/verifier/src/test/ledger-builder';
import { indexOf, startLedgerOrigin, type OriginState } from '../packages/verifier/src/test/ledger-origin';
import { benchRounds, fmt, median, ratio } from './lib/stats';

type Did = `did:${string}:${string}`;
const LIKERS = 100;
const AUTHORS = 10;
const POSTS_EACH = 10;
const CONCURRENCY = 8;

export async function verifierBench(): Promise<void> {
  if (!testEnv.databaseUrl) {
    console.log('verifier: skipped (the local AT Protocol network needs TEST_DATABASE_URL)');
    return;
  }
  const rounds = benchRounds();
  const net = await startAtprotoNetwork();
  const state: OriginState = { index: null, ledgers: new Map(), proofs: null, stall: new Set() };
  const origin = await startLedgerOrigin(state);
  try {
    const started = Date.now();
    const { members, likes } = await seed(net);
    const text = encodeLedger(buildLedgerLines({ members, rules: { ...defaultRules, dailyLimit: 1000 } }));
    const sha = `sha256:${createHash('sha256').update(text).digest('hex')}`;
    state.index = indexOf({
      week: '2026-W48',
      sha256: sha,
      url: `${origin.url}/api/ledger/2026-W48/1`,
      published: null,
    });
    state.ledgers.set('/api/ledger/2026-W48/1', text);
    console.log(
      `verifier: seeded ${likes.length} likes by ${LIKERS} accounts on ${AUTHORS * POSTS_EACH} posts in ${fmt((Date.now() - started) / 1000, 1)} s`,
    );

    // Both modes in each round, between the two plain fetches that make its yardstick.
    const modes = {
      auto: { ratios: [] as number[], rates: [] as number[], repositories: 0 },
      record: { ratios: [] as number[], rates: [] as number[], repositories: 0 },
    };
    const yardstick: number[] = [];
    const carsOnly: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const bare = await plainFetch(net.pdsUrl, likes);
      const rates: Record<keyof typeof modes, number> = { auto: 0, record: 0 };
      for (const mode of ['auto', 'record'] as const) {
        const t0 = performance.now();
        const report = await verifyLedger({
          origin: origin.url,
          plcUrl: net.plcUrl,
          concurrency: CONCURRENCY,
          ...(mode === 'record' ? { repoThreshold: Infinity } : {}),
        });
        const seconds = (performance.now() - t0) / 1000;
        if (report.records?.ok !== likes.length)
          throw new Error(
            `the verifier (${mode}) checked ${report.records?.ok} records ok, not ${likes.length}`,
          );
        // Every liker has 100 likes in the week: auto mode proves them all from the likers' repositories.
        const fromRepositories = mode === 'auto' ? likes.length : 0;
        if (report.records.proofs.records !== fromRepositories)
          throw new Error(
            `the verifier (${mode}) proved ${report.records.proofs.records} records from repositories, not ${fromRepositories}`,
          );
        modes[mode].repositories = report.records.proofs.repositories;
        rates[mode] = likes.length / seconds;
      }
      const after = await plainFetch(net.pdsUrl, likes);
      carsOnly.push(likes.length / (await plainFetch(net.pdsUrl, likes, true)));
      const bareRate = likes.length / ((bare + after) / 2);
      yardstick.push(bareRate);
      for (const mode of ['auto', 'record'] as const) {
        modes[mode].rates.push(rates[mode]);
        modes[mode].ratios.push(ratio(rates[mode], bareRate));
      }
    }
    const { auto, record } = modes;
    console.log(
      `verifier: records checked with proofs vs fetched without (${likes.length} records, concurrency ${CONCURRENCY}, ${rounds} interleaved rounds): ` +
        `median ratio ${fmt(median(auto.ratios))}× (the default, --proofs auto: ${auto.repositories} repositories fetched once each; verifier ${fmt(median(auto.rates), 0)} records/s, the whole week in ${fmt(likes.length / median(auto.rates), 1)} s; plain getRecord ${fmt(median(yardstick), 0)} records/s)`,
    );
    console.log(
      `verifier: --proofs record (each record with its own getRecord proof), the same rounds: median ratio ${fmt(median(record.ratios))}× ` +
        `(verifier ${fmt(median(record.rates), 0)} records/s, the whole week in ${fmt(likes.length / median(record.rates), 1)} s; the proofs' CARs fetched but not checked ${fmt(median(carsOnly), 0)} records/s)`,
    );
  } finally {
    await origin.close();
    await net.close();
  }
}

/** 100 accounts each like 100 posts by 10 authors: 10,000 distinct likes, written 200 at a time (applyWrites). */
async function seed(net: Awaited<ReturnType<typeof startAtprotoNetwork>>) {
  const sc = net.network.getSeedClient();
  const account = async (name: string) =>
    (
      await sc.createAccount(name, {
        handle: `${name}.test`,
        email: `${name}@example.test`,
        password: `${name}-pw`,
      })
    ).did as Did;
  // Ten at a time: a hundred at once made the local PDS's calls to its PLC time out on a loaded machine
  // ("Unable to perform PLC operation", 502) and ended the bench before it measured anything.
  const accounts = async (prefix: string, n: number) => {
    const dids: Did[] = [];
    for (let from = 0; from < n; from += 10)
      dids.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, n - from) }, (_, i) => account(`${prefix}${from + i}`)),
        )),
      );
    return dids;
  };
  const authors = await accounts('author', AUTHORS);
  const likers = await accounts('liker', LIKERS);
  const posts: Array<{ author: Did; uri: string; cid: string; n: number }> = [];
  for (const author of authors) {
    for (let n = 0; n < POSTS_EACH; n++) {
      const ref = (await sc.post(author, `mana ${n}`)).ref;
      posts.push({ author, uri: ref.uriStr, cid: ref.cidStr, n });
    }
  }
  const likes: Array<{ uri: string; cid: string; author: Did; post: string }> = [];
  await Promise.all(
    likers.map(async (liker) => {
      const writes = posts.map((p) => ({
        $type: 'com.atproto.repo.applyWrites#create',
        collection: 'app.bsky.feed.like',
        value: {
          $type: 'app.bsky.feed.like',
          subject: { uri: p.uri, cid: p.cid },
          createdAt: new Date().toISOString(),
        },
      }));
      const answer = await sc.agent.com.atproto.repo.applyWrites(
        { repo: liker, writes: writes as never },
        { headers: sc.getHeaders(liker), encoding: 'application/json' },
      );
      const results = answer.data.results ?? [];
      results.forEach((r, i) => {
        const made = r as { uri: string; cid: string };
        likes.push({ uri: made.uri, cid: made.cid, author: liker, post: posts[i]!.uri });
      });
    }),
  );
  const members: WorldMember[] = authors.map((author, a) => ({
    author,
    handle: `author${a}.test`,
    firstTrackedAt: '2026-11-01T00:00:00.000Z',
    posts: posts
      .filter((p) => p.author === author)
      .map((p) => ({
        post: p.uri,
        createdAt: `2026-11-24T${String(p.n).padStart(2, '0')}:00:00.000Z`,
        records: likes
          .filter((l) => l.post === p.uri)
          .map((l) => ({
            author: l.author,
            cid: l.cid,
            createdAt: '2026-11-24T12:00:00.000Z',
            kind: 'like' as const,
            uri: l.uri,
          })),
      })),
  }));
  return { members, likes };
}

/**
 * Seconds to fetch every record as JSON without a proof (or, with `proofs`, its proof's CAR without checking it),
 * `CONCURRENCY` at a time, with the verifier's client.
 */
async function plainFetch(
  pdsUrl: string,
  likes: ReadonlyArray<{ uri: string }>,
  proofs = false,
): Promise<number> {
  const http = new Http();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < likes.length) {
        const [, , repo, collection, rkey] = likes[next++]!.uri.split('/');
        const url = new URL(
          proofs ? '/xrpc/com.atproto.sync.getRecord' : '/xrpc/com.atproto.repo.getRecord',
          pdsUrl,
        );
        url.search = new URLSearchParams({
          [proofs ? 'did' : 'repo']: repo!,
          collection: collection!,
          rkey: rkey!,
        }).toString();
        const answer = await http.get(url.href, { accept: '*/*', maxBytes: 2_000_000 });
        if (!proofs) JSON.parse(Buffer.from(answer.body).toString('utf8'));
      }
    }),
  );
  return (performance.now() - t0) / 1000;
}
