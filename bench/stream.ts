// The Bluesky event consumer (issue 12): events per second the worker's consumer stores (the official @atproto/sync
// Firehose decoding, filtering for the programme, and writing each batch with its cursor in one transaction on
// PGlite) against a bare loop over the very same stream range that only decodes (the same Firehose and decoder, no
// database): the ratio is what storing costs. Commits are taken as the relay verified them (the default,
// BLUESKY_VERIFY_COMMITS off); decoding with each commit's signature checked is reported beside. The stream is a
// real local AT Protocol network's PDS (@atproto/dev-env, on PostgreSQL: TEST_DATABASE_URL, else
// BENCH_DATABASE_URL), seeded with accounts posting (some with the programme's hashtag), liking and reposting each
// other, in two mixes (about half the events concerning tracked posts, and a public mix where about 95% concern
// none). For scale: Bluesky's relay carries over 2,000 events/s (docs.bsky.app/blog/relay-ops).
import { IdResolver, MemoryCache } from '@atproto/identity';
import { Firehose } from '@atproto/sync';
import pino from 'pino';
import type { SeedClient } from '@atproto/dev-env';
import { systemClock } from '../apps/server/src/integrations/x/clock';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import {
  commitOp,
  STREAM_COLLECTIONS,
  toStreamEvent,
} from '../apps/server/src/integrations/bluesky/bluesky-events';
import { createBlueskyReading } from '../apps/server/src/integrations/bluesky/bluesky-reading';
import { saveCursor } from '../apps/server/src/modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../apps/server/src/modules/mana/stream-ingest.service';
import { readRulesFile, saveRules } from '../apps/server/src/modules/programme/programme.service';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../apps/server/src/test/atproto-network';
import { BENCH_PG_URL } from './lib/mana-db';
import { benchRounds, fmt, median, ratio } from './lib/stats';

const rounds = benchRounds();
/** Accounts seeded; each writes posts, likes and reposts (BENCH_STREAM_ACCOUNTS to change the size). */
const accounts = Number(process.env.BENCH_STREAM_ACCOUNTS ?? 30);
const POSTS_EACH = 10;
const LIKES_EACH = 40;
const REPOSTS_EACH = 10;

type Did = `did:${string}:${string}`;

type Ref = Awaited<ReturnType<SeedClient['post']>>['ref'];

/**
 * The two mixes measured:
 * - `programme`: every other post names the programme and likes and reposts fall on any post, so about half the
 *   events concern a tracked post (a busy programme's own corner of the network);
 * - `public`: one post in 20 names the programme and likes and reposts fall on any post of the mix, so about 95%
 *   of events concern no tracked post, as on the public relay, where the programme is a tiny part of the traffic.
 */
type Mix = 'programme' | 'public';

async function seed(
  net: LocalAtprotoNetwork,
  sc: SeedClient,
  mix: Mix,
  dids: Did[],
  official: Did,
): Promise<void> {
  const every = mix === 'programme' ? 2 : 20;
  const refs: Ref[] = [];
  if (mix === 'programme') refs.push((await sc.post(official, 'Welcome to #ManaBoard')).ref);
  await Promise.all(
    dids.map(async (did, i) => {
      for (let p = 0; p < POSTS_EACH; p++) {
        const text =
          (i * POSTS_EACH + p) % every === 0
            ? `take ${p} on #ManaBoard from ${i}`
            : `an off-topic thought ${p}`;
        refs.push((await sc.post(did, text)).ref);
      }
    }),
  );
  await Promise.all(
    dids.map(async (did, i) => {
      for (let k = 0; k < LIKES_EACH; k++) {
        const subject = refs[(i * 7 + k * 13) % refs.length];
        if (subject) await sc.like(did, subject);
      }
      for (let k = 0; k < REPOSTS_EACH; k++) {
        const subject = refs[(i * 11 + k * 17 + 1) % refs.length];
        if (subject) await sc.repost(did, subject);
      }
    }),
  );
  await net.network.processAll();
}

/** One seed client for all (it keeps each account's session). */
async function accountsOf(sc: SeedClient): Promise<{ dids: Did[]; official: Did }> {
  const dids: Did[] = [];
  for (let i = 0; i < accounts; i++) {
    const account = await sc.createAccount(`bench${i}`, {
      handle: `bench${i}.test`,
      email: `bench${i}@example.test`,
      password: `bench${i}-password`,
    });
    dids.push(account.did);
  }
  const official = await sc.createAccount('benchhq', {
    handle: 'benchhq.test',
    email: 'benchhq@example.test',
    password: 'benchhq-password',
  });
  return { dids, official: official.did };
}

const resolver = (net: LocalAtprotoNetwork) =>
  new IdResolver({ plcUrl: net.plcUrl, didCache: new MemoryCache(), fetch: globalThis.fetch });

/**
 * Decode only (and verify each commit's signature when `verify`), from `from` to `to`: events per second and how
 * many events there were.
 */
async function bare(
  net: LocalAtprotoNetwork,
  from: number,
  to: number,
  verify: boolean,
): Promise<{ perSecond: number; events: number }> {
  let events = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const firehose: Firehose = new Firehose({
      idResolver: resolver(net),
      service: net.streamUrl,
      filterCollections: STREAM_COLLECTIONS,
      excludeIdentity: true,
      excludeAccount: true,
      excludeSync: true,
      getCursor: () => from,
      unauthenticatedCommits: !verify,
      onError: () => undefined,
      handleEvent: (event) => {
        const op = commitOp(event);
        if (!op) return;
        toStreamEvent(op);
        events++;
        if (event.seq >= to) void firehose.destroy().then(resolve);
      },
    });
    void firehose.start();
  });
  return { perSecond: events / ((performance.now() - started) / 1000), events };
}

/** The worker's consumer, storing into a fresh PGlite, from `from` until `to` is stored. */
async function consumer(
  net: LocalAtprotoNetwork,
  from: number,
  to: number,
  events: number,
): Promise<{ perSecond: number; counted: number; tracked: number }> {
  const database = await openDatabase({ kind: 'pglite' });
  try {
    await migrateToLatest(database.db);
    await saveRules(database.db, { ...(await readRulesFile()), officialHandles: ['benchhq'] }, 'bench');
    await saveCursor(database.db, STREAM_JOB, { seq: from }, new Date());
    const reading = createBlueskyReading({
      config: {
        appviewUrl: net.appviewUrl,
        plcUrl: net.plcUrl,
        relayUrl: net.streamUrl,
        handleResolverUrl: undefined,
        allowHttp: true,
        verifyCommits: false,
        postUrlBase: 'https://bsky.app',
      },
      db: database.db,
      log: pino({ level: 'warn' }),
      clock: systemClock,
      officialHandleDomain: 'test',
    });
    const started = performance.now();
    await reading.stream.start();
    await reading.stream.storedThrough(to);
    const seconds = (performance.now() - started) / 1000;
    await reading.stream.stop();
    const count = async (table: 'stream_records' | 'posts') =>
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    return {
      perSecond: events / seconds,
      counted: Number(await count('stream_records')),
      tracked: Number(await count('posts')),
    };
  } finally {
    await database.close();
  }
}

export async function streamBench(): Promise<void> {
  process.env.TEST_DATABASE_URL ??= BENCH_PG_URL;
  const skip = atprotoNetworkSkipReason();
  if (skip) {
    console.log(`bluesky event consumer: skipped (${skip})`);
    return;
  }
  const net = await startAtprotoNetwork();
  try {
    const sc = net.network.getSeedClient();
    const { dids, official } = await accountsOf(sc);
    const ranges: Array<{ mix: Mix; from: number; to: number }> = [];
    for (const mix of ['programme', 'public'] as const) {
      const from = (await net.network.pds.ctx.sequencer.curr()) ?? 0;
      await seed(net, sc, mix, dids, official);
      ranges.push({ mix, from, to: (await net.network.pds.ctx.sequencer.curr()) ?? 0 });
    }
    for (const { mix, from, to } of ranges) {
      const bareRates: number[] = [];
      const verifiedRates: number[] = [];
      const storedRates: number[] = [];
      const ratios: number[] = [];
      let events = 0;
      let concerning = 0;
      for (let round = 0; round < rounds; round++) {
        verifiedRates.push((await bare(net, from, to, true)).perSecond);
        const b = await bare(net, from, to, false);
        events = b.events;
        const stored = await consumer(net, from, to, b.events);
        // Events that concern a tracked post: the tracked posts themselves and the records counted on them.
        concerning = stored.tracked + stored.counted;
        bareRates.push(b.perSecond);
        storedRates.push(stored.perSecond);
        ratios.push(ratio(stored.perSecond, b.perSecond));
      }
      const share = events > 0 ? Math.round((100 * (events - concerning)) / events) : 0;
      console.log(
        `bluesky event consumer, ${mix} mix: ${events} events (${accounts} accounts posting, liking, reposting; ` +
          `${share}% concern no tracked post; ${rounds} rounds): ` +
          `stored ${fmt(median(storedRates), 0)} events/s (decode + filter + write, PGlite; BLUESKY_VERIFY_COMMITS ` +
          `off, the default) = ${fmt(median(ratios))}× of decoding alone (${fmt(median(bareRates), 0)} events/s); ` +
          `decoding with each commit's signature checked (BLUESKY_VERIFY_COMMITS=true): ` +
          `${fmt(median(verifiedRates), 0)} events/s; Bluesky's relay carries over 2,000 events/s`,
      );
    }
  } finally {
    await net.close();
  }
}
