import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { World } from '@manaboard/x-sim';
import { buildApp } from '../composition/app';
import { loadConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { createXClient } from '../integrations/x/x-client';
import { Worker } from '../jobs/worker';
import type { SocialNetwork } from '../social/social-network';
import { hashBrowserId } from '../modules/identity/browser-id';
import { bindBrowser, upsertAccount } from '../modules/linking/accounts.repository';
import { SIM_APP, SIM_CALLBACK, startSimulatedX } from './simulated-x';
import { openTestDatabase, type TestDatabaseKind } from './test-database';

export type ManaHarness = {
  app: FastifyInstance;
  database: DatabaseHandle;
  worker: Worker;
  /** The port the worker uses (a second worker in a test can share it). */
  network: SocialNetwork;
  sim: Awaited<ReturnType<typeof startSimulatedX>>;
  /** GET a community API path and parse the JSON. */
  get: (url: string) => Promise<{ status: number; body: unknown; headers: Record<string, unknown> }>;
  /** Writes the network calls the budget still holds in memory to its ledger (it batches them for a second). */
  flushBudget: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * The real app, worker and X client on a fresh database, against a simulated X over loopback HTTP, all on the
 * world's clock (rate-limit waits advance simulated time). `wrapNetwork` lets a test break the port on purpose
 * (a crash between batches), delegating everything else to the simulated X.
 */
export async function startManaHarness(
  kind: TestDatabaseKind,
  world: World,
  options: {
    rateLimitScale?: number;
    wrapNetwork?: (network: SocialNetwork) => SocialNetwork;
    /** Members' own tokens by account id (tests sign members in at the simulated X). */
    memberTokens?: Map<string, string>;
  } = {},
): Promise<ManaHarness> {
  const sim = await startSimulatedX(world, { rateLimitScale: options.rateLimitScale ?? 1 });
  const database = await openTestDatabase(kind);
  const clock = world.clock.asClientClock();
  const x = createXClient(sim.config, database.db, { clock, random: () => 0.5 });
  const log = pino({ level: 'silent' });
  const network = options.wrapNetwork ? options.wrapNetwork(x.network) : x.network;
  const tokens = options.memberTokens;
  const worker = new Worker(
    {
      db: database.db,
      network,
      clock,
      log,
      ...(tokens ? { memberToken: async (accountId: string) => tokens.get(accountId) } : {}),
    },
    { databaseKind: database.kind },
  );
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
  const app = await buildApp({ config, database, simulatedWorld: world, clock, leaderboardCacheMs: 0 });
  await app.ready();
  return {
    app,
    database,
    worker,
    network,
    sim,
    flushBudget: () => x.budget.flush(),
    get: async (url) => {
      const response = await app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    close: async () => {
      await worker.stop();
      await app.close();
      await sim.close();
      await database.close();
    },
  };
}

/**
 * A member linked through the linking module's own repository functions (what OAuth completion writes), with
 * the browser id (`X-User-Id`) bound to the account.
 */
export async function linkMember(h: ManaHarness, user: { id: string; username: string }, at: number) {
  const account = await upsertAccount(h.database.db, {
    networkUserId: user.id,
    handle: user.username,
    avatarUrl: null,
    networkCreatedAt: null,
    followers: 100,
    sealedAccessToken: 'sealed',
    sealedRefreshToken: null,
    tokenExpiresAt: new Date(at + 7_200_000),
    scopes: 'tweet.read users.read like.read offline.access',
    now: new Date(at),
  });
  const browserId = randomUUID();
  const browserHash = hashBrowserId(browserId);
  await bindBrowser(h.database.db, browserHash, account.id, new Date(at));
  return { account, browserId, browserHash };
}

/** Signs a member in at the simulated X (authorize form, then the token endpoint); returns their access token. */
export async function memberAccessTokenAt(h: ManaHarness, handle: string): Promise<string> {
  const base = h.sim.address;
  const verifier = randomUUID() + randomUUID();
  const form = new URLSearchParams({
    response_type: 'code',
    client_id: SIM_APP.clientId,
    redirect_uri: SIM_CALLBACK,
    scope: 'tweet.read users.read like.read offline.access',
    state: 'test',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    decision: 'allow',
    handle,
  });
  const formType = { 'content-type': 'application/x-www-form-urlencoded' };
  const authorized = await fetch(`${base}/i/oauth2/authorize`, {
    method: 'POST',
    body: form,
    headers: formType,
    redirect: 'manual',
  });
  const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const basic = Buffer.from(`${SIM_APP.clientId}:${SIM_APP.clientSecret}`).toString('base64');
  const token = await fetch(`${base}/2/oauth2/token`, {
    method: 'POST',
    headers: { ...formType, authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: SIM_CALLBACK,
      code_verifier: verifier,
    }),
  });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`the simulated X gave no token for ${handle}`);
  return body.access_token;
}
