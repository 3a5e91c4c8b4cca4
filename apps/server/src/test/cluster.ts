import { freePort } from './free-port';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { World } from '@manaboard/x-sim';
import { createScratchSchema, type ScratchSchema } from './postgres-schema';
import { runNpm, type RunningProcess } from './processes';

/** Where the processes find X: a simulated X's address and its demo app's credentials. */
export type ClusterX = { address: string; clientId: string; clientSecret: string; bearerToken: string };

export type ApiProcess = RunningProcess & { origin: string };

export type Cluster = {
  schema: ScratchSchema;
  apis: ApiProcess[];
  workers: RunningProcess[];
  /** The environment every process got (a test's in-process reference can load the same configuration). */
  env: Record<string, string>;
  /** SIGTERM to every process still running, then drops the schema. */
  stop: () => Promise<void>;
};

/**
 * The scripted world of the multi-process test and benchmark: `members` members with 4 tracked posts each, 20
 * to 30 hours old, with fixed engagement; the clock stands still, so every run sees the same metrics.
 */
export function clusterWorld(now: number, members: number): World {
  const world = new World(now);
  world.createUser({ username: 'ManaboardHQ', official: true });
  for (let m = 0; m < members; m++) {
    const user = world.createUser({ username: `member_${m}` });
    for (let k = 0; k < 4; k++) {
      const at = now - 30 * 3_600_000 + (m * 4 + k) * 30_000;
      const post = world.createPost(user.id, `day ${k} with #ManaBoard`, at);
      world.addOrganic(post.id, { likes: (m * 7 + k) % 13, replies: k, reposts: m % 3 });
    }
  }
  return world;
}

export { freePort };

/**
 * The environment of every process of a cluster: one PostgreSQL schema, one Redis, one X (real X's variables
 * pointed at a simulated X), and the secrets every process must share (tokens sealed by one are opened by
 * another; CSRF tokens issued by one are checked by another).
 */
export function clusterEnv(options: {
  databaseUrl: string;
  redisUrl: string;
  x: ClusterX;
  extra?: Record<string, string>;
}): Record<string, string> {
  const { x } = options;
  return {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    X_CLIENT_ID: x.clientId,
    X_CLIENT_SECRET: x.clientSecret,
    X_BEARER_TOKEN: x.bearerToken,
    X_API_BASE_URL: x.address,
    X_AUTHORIZE_URL: `${x.address}/i/oauth2/authorize`,
    X_TOKEN_URL: `${x.address}/2/oauth2/token`,
    X_REVOKE_URL: `${x.address}/2/oauth2/revoke`,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CSRF_SECRET: randomBytes(32).toString('hex'),
    SEED_DEMO: 'false',
    // The simulated X's accounts the rules file names: off the demo they are named explicitly (issue 25).
    OFFICIAL_ACCOUNTS: 'ManaboardHQ,ManaboardDev',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...options.extra,
  };
}

/**
 * Starts `apis` × `npm run start:api -w @manaboard/server` and `workers` × `npm run start:worker` at the same
 * moment on a fresh PostgreSQL schema (so they also race to migrate it), and waits until every API answers
 * /readyz. The root `start:api` builds the web app first; the workspace script is what it runs next.
 */
export async function startCluster(options: {
  serverUrl: string;
  redisUrl: string;
  x: ClusterX;
  apis: number;
  workers: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const schema = await createScratchSchema(options.serverUrl, `mb-cluster-${randomBytes(4).toString('hex')}`);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-cluster-'));
  const env = {
    ...clusterEnv({ databaseUrl: schema.url, redisUrl: options.redisUrl, x: options.x, extra: options.env }),
    DATA_DIR: dataDir,
  };
  const apis: ApiProcess[] = [];
  const workers: RunningProcess[] = [];
  for (let i = 0; i < options.apis; i++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const proc = runNpm(['start:api', '-w', '@manaboard/server'], {
      ...env,
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
    });
    apis.push({ ...proc, origin });
  }
  for (let i = 0; i < options.workers; i++) {
    workers.push(runNpm(['start:worker'], { ...env, PORT: String(await freePort()) }));
  }
  const everyone = [...apis, ...workers];
  const stop = async () => {
    for (const p of everyone) p.signal('SIGTERM');
    const exits = everyone.map((p) =>
      Promise.race([p.exited, new Promise((r) => setTimeout(r, 15_000))]).then(() => p.signal('SIGKILL')),
    );
    await Promise.all(exits);
    await schema.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(apis.map((api) => untilReady(api)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { schema, apis, workers, env, stop };
}

async function untilReady(api: ApiProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${api.origin}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    const code = await Promise.race([api.exited, new Promise((r) => setTimeout(() => r(null), 100))]);
    if (code !== null) throw new Error(`an API process exited (${String(code)}):\n${api.output()}`);
    if (Date.now() > deadline) throw new Error(`an API process was not ready within 120 s:\n${api.output()}`);
  }
}
