import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { expect } from 'vitest';
import type { SeedClient } from '@atproto/dev-env';
import { breakdownResponseSchema, manaResponseSchema, type ProgrammeRules } from '@manaboard/contract';
import { buildApp } from '../composition/app';
import type { Clock } from '../lib/clock';
import type { BlueskyConfig } from '../config/config';
import { loadConfig } from '../config/config';
import { testEnv } from '../config/test-env';
import type { DatabaseHandle } from '../db/database';
import { Worker } from '../jobs/worker';
import { readRulesFile, saveRules } from '../modules/programme/programme.service';
import { BLUESKY_JOBS, createBlueskyStreaming } from '../composition/bluesky-streaming';
import { recountPostAggregates, startAtprotoNetwork, type LocalAtprotoNetwork } from './atproto-network';
import { Tally } from './bluesky-tally';
import { openTestDatabase, type TestDatabaseKind } from './test-database';

export type Did = `did:${string}:${string}`;
export type Ref = Awaited<ReturnType<SeedClient['post']>>['ref'];
type StreamTuning = { batchSize?: number; flushMs?: number; maxBackoffMs?: number };

/**
 * A real local AT Protocol network with accounts `{name}.test`, a Manaboard database (PGlite) whose rules name
 * `manahq` as the official account, the API app, a worker running the Bluesky jobs and a stream consumer, and
 * the helpers the Bluesky reading tests share: seeding (post, like, repost, reply), reading the board and
 * breakdowns, waiting for the AppView, and comparing the board with the tally.
 */
export async function startBlueskyWorld(
  handles: readonly string[],
  config: Partial<BlueskyConfig> = {},
  /**
   * The app's database kind (PGlite unless asked), where it is served (PUBLIC_ORIGIN) when it listens, and
   * whether it is configured as a Bluesky programme (SOCIAL_NETWORK=bluesky on this network, as `npm start` is:
   * the open week's ledger names its network) rather than the default app the reading tests share.
   */
  world: { databaseKind?: TestDatabaseKind; publicOrigin?: string; blueskyApp?: boolean } = {},
) {
  const net: LocalAtprotoNetwork = await startAtprotoNetwork();
  const sc = net.network.getSeedClient();
  const did: Record<string, string> = {};
  for (const name of handles) {
    const account = await sc.createAccount(name, {
      handle: `${name}.test`,
      email: `${name}@example.test`,
      password: `${name}-password`,
    });
    did[name] = account.did;
  }
  await net.network.processAll();
  const database: DatabaseHandle = await openTestDatabase(world.databaseKind ?? 'pglite');
  const rules: ProgrammeRules = { ...(await readRulesFile()), officialHandles: ['manahq'] };
  await saveRules(database.db, rules, 'test: the official account of the local network');
  const time = { offset: 0 };
  const clock: Clock = {
    now: () => Date.now() + time.offset,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
  const log = pino({ level: testEnv.blueskyLogLevel });
  const blueskyConfig: BlueskyConfig = {
    appviewUrl: net.appviewUrl,
    plcUrl: net.plcUrl,
    relayUrl: net.streamUrl,
    handleResolverUrl: undefined,
    allowHttp: true,
    // The default: the relay's (here the PDS's) own verification is trusted, as with Bluesky's relay.
    verifyCommits: false,
    postUrlBase: 'https://bsky.app',
    ...config,
  } as BlueskyConfig;
  const newReading = (
    stream: StreamTuning = {},
    extra: Partial<BlueskyConfig> = {},
    gapFill: Parameters<typeof createBlueskyStreaming>[0]['gapFill'] = {},
  ) =>
    createBlueskyStreaming({
      gapFill,
      config: { ...blueskyConfig, ...extra },
      db: database.db,
      log,
      clock,
      stream,
      officialHandleDomain: 'test',
    });
  const reading = newReading({ batchSize: 4, flushMs: 100 });
  const worker = new Worker(
    { db: database.db, network: reading.network, clock, log },
    { databaseKind: database.kind, jobs: BLUESKY_JOBS },
  );
  const app: FastifyInstance = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      ...(world.publicOrigin ? { PUBLIC_ORIGIN: world.publicOrigin } : {}),
      ...(world.blueskyApp ? blueskyEnv(net) : {}),
    }),
    database,
    clock,
    leaderboardCacheMs: 0,
  });
  await app.ready();
  const tally = new Tally();

  const head = async () => (await net.network.pds.ctx.sequencer.curr()) ?? 0;
  const post = async (
    who: string,
    text: string,
    extra: { quote?: Ref; tags?: string[]; mention?: string } = {},
  ) => {
    const facets = extra.mention
      ? [
          {
            index: { byteStart: text.indexOf('@'), byteEnd: text.indexOf('@') + extra.mention.length + 1 },
            features: [
              {
                $type: 'app.bsky.richtext.facet#mention' as const,
                did: did[extra.mention.replace(/\.test$/, '')] ?? '',
              },
            ],
          },
        ]
      : undefined;
    const made = await sc.post(
      did[who] as Did,
      text,
      facets as never,
      undefined,
      extra.quote,
      extra.tags ? { tags: extra.tags } : undefined,
    );
    return made.ref;
  };

  async function board(): Promise<Map<string, number>> {
    const response = await app.inject({ method: 'GET', url: '/api/mana?limit=100' });
    expect(response.statusCode).toBe(200);
    const data = manaResponseSchema.parse(response.json()).data;
    return new Map(data.authors.map((a) => [a.authorName.replace(/\.test$/, ''), a.totalMana]));
  }

  async function breakdown(who: string) {
    const response = await app.inject({ method: 'GET', url: `/api/mana/${did[who]}/breakdown` });
    expect(response.statusCode).toBe(200);
    return breakdownResponseSchema.parse(response.json()).data;
  }

  /**
   * Waits until the AppView has indexed what the PDS holds: every tracked post (and each untracked one the tally
   * names) shows the counts the test seeded, and deleted posts are gone. processAll alone returns early now and
   * then on this shared machine, and a refresh against a lagging AppView would reconcile to older counts. The wait
   * allows 90 s: in CI several local networks (this file's beside the AppView-lag, trust, doctor and demo files)
   * index at once on 2 cores, and the AppView took more than 30 s there while it took 2 s alone.
   */
  async function appViewCaughtUp() {
    await net.network.processAll();
    const want = new Map([...tally.posts].filter(([, p]) => !p.deleted).map(([id, p]) => [id, p.counts]));
    for (const [id, counts] of tally.untracked) want.set(id, counts);
    const gone = [...tally.posts].filter(([, p]) => p.deleted).map(([id]) => id);
    const expected = { counts: Object.fromEntries(want), missing: gone.sort() };
    let recounted = Date.now();
    await expect
      .poll(
        async () => {
          const answer = await reading.network.readMetrics([...want.keys(), ...gone]);
          const seen = {
            counts: Object.fromEntries(answer.posts.map((p) => [p.id, p.metrics])),
            missing: answer.missing.map((m) => m.id).sort(),
          };
          // Counts still off after 5 s: the AppView may have lost an update to a race of its own; have it recount.
          const off = answer.posts.filter((p) => !isDeepStrictEqual(p.metrics, want.get(p.id)));
          if (off.length > 0 && Date.now() - recounted > 5_000) {
            await recountPostAggregates(
              net,
              off.map((p) => p.id),
            );
            recounted = Date.now();
          }
          return seen;
        },
        { timeout: 90_000, interval: 250 },
      )
      .toEqual(expected);
  }

  return {
    net,
    sc,
    did,
    database,
    rules,
    time,
    clock,
    log,
    app,
    worker,
    reading,
    tally,
    blueskyConfig,
    /** The process configuration of a worker on this network (SOCIAL_NETWORK=bluesky), with `extra` settings. */
    workerConfig: (extra: Record<string, string> = {}) =>
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...blueskyEnv(net), ...extra }),
    newReading,
    head,
    post,
    like: (who: string, subject: Ref) => sc.like(did[who] as Did, subject),
    repost: (who: string, subject: Ref) => sc.repost(did[who] as Did, subject),
    reply: async (who: string, parent: Ref, text: string) =>
      (await sc.reply(did[who] as Did, parent, parent, text)).ref,
    board,
    breakdown,
    appViewCaughtUp,
    /** Once the AppView caught up, refresh reconciles from getPosts and totals recompute. */
    async reconcile() {
      await appViewCaughtUp();
      await worker.runJob('refresh');
      await worker.runJob('totals');
    },
    async expectBoard(withInteractions: boolean) {
      const expected = tally.expected(rules, withInteractions);
      expect(Object.fromEntries(await board())).toEqual(Object.fromEntries(expected));
      for (const [who, mana] of expected) {
        const lines = (await breakdown(who)).lines;
        expect(lines.reduce((sum, l) => sum + l.mana, 0)).toBe(mana);
      }
    },
    async close() {
      await reading.stream.stop();
      await worker.stop();
      await app.close();
      await database.close();
      await net.close();
    },
  };
}

/** The process environment of a Manaboard on this local network (SOCIAL_NETWORK=bluesky). */
function blueskyEnv(net: LocalAtprotoNetwork): Record<string, string> {
  return {
    SOCIAL_NETWORK: 'bluesky',
    BLUESKY_APPVIEW_URL: net.appviewUrl,
    BLUESKY_PLC_URL: net.plcUrl,
    BLUESKY_RELAY_URL: net.streamUrl,
    BLUESKY_ALLOW_HTTP: 'true',
  };
}

export type BlueskyWorld = Awaited<ReturnType<typeof startBlueskyWorld>>;
