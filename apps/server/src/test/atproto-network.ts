import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { defaultEnvVariable } from '../config/child-env';
import { testEnv } from '../config/test-env';
import { fileURLToPath } from 'node:url';
import type { TestNetwork } from '@atproto/dev-env';
import { freePort } from './free-port';
import { withClient } from './postgres-schema';

/**
 * A real local AT Protocol network for the Bluesky tests (@atproto/dev-env): a PLC directory, a PDS with its OAuth
 * authorization server, sign-in pages and its own repository event stream (`com.atproto.sync.subscribeRepos`), and
 * an AppView (`app.bsky.*`, e.g. getPosts and getProfile). It keeps its data in PostgreSQL (a scratch schema, dropped
 * by `close`) and Redis, which is why the Bluesky tests need TEST_DATABASE_URL (and TEST_REDIS_URL, or Redis on
 * 127.0.0.1:6379); `atprotoNetworkSkipReason` says, in one line, why they cannot run when they cannot.
 */
export type LocalAtprotoNetwork = {
  /** The dev-env TestNetwork itself (pds, plc, bsky, processAll, getSeedClient via seedClient). */
  network: TestNetwork;
  pdsUrl: string;
  plcUrl: string;
  appviewUrl: string;
  /** The PDS's event stream (ws://…), the stand-in for a relay. */
  streamUrl: string;
  close: () => Promise<void>;
};

/** Null when the local network can start here, or why it cannot. */
export function atprotoNetworkSkipReason(): string | null {
  if (!testEnv.databaseUrl) {
    return 'the local AT Protocol network keeps its data in PostgreSQL: set TEST_DATABASE_URL to run the Bluesky tests';
  }
  // The network's own database driver is a native addon (better-sqlite3 13, whose Node-API prebuilds load on
  // Node 24). It is tried in a child process, so a broken build can only fail the probe, never the test worker.
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: path.dirname(fileURLToPath(import.meta.url)),
    encoding: 'utf8',
  });
  if (probe.status !== 0) {
    const reason = (probe.stderr || String(probe.error ?? 'unknown'))
      .split('\n')
      .find((line) => /Error/.test(line));
    return `better-sqlite3 does not load on this Node (${reason ?? 'see npm install'}): run npm install again`;
  }
  return null;
}

export async function startAtprotoNetwork(): Promise<LocalAtprotoNetwork> {
  const serverUrl = testEnv.databaseUrl;
  if (!serverUrl) throw new Error(atprotoNetworkSkipReason() ?? 'no TEST_DATABASE_URL');
  const redis = new URL(testEnv.redisUrl ?? 'redis://127.0.0.1:6379');
  // dev-env reads its Redis from the environment: set for it, not read here.
  defaultEnvVariable('REDIS_HOST', `${redis.hostname}:${redis.port || '6379'}`);
  // Letters and underscores only: the network derives more schema names from it.
  const schema = `mb_atproto_${randomBytes(5)
    .toString('hex')
    .replace(/[0-9]/g, (digit) => String.fromCharCode(97 + Number(digit)))}`;
  const { TestNetwork } = await import('@atproto/dev-env');
  // The AppView names images by its public URL (dev-env's default is a placeholder host): its own local address,
  // so avatars in a profile load in the browser tests.
  const appviewPort = await freePort();
  const network = await TestNetwork.create({
    dbPostgresUrl: serverUrl,
    dbPostgresSchema: schema,
    bsky: { port: appviewPort, publicUrl: `http://localhost:${appviewPort}` },
  });
  const pdsUrl = network.pds.url;
  return {
    network,
    pdsUrl,
    plcUrl: network.plc.url,
    appviewUrl: network.bsky.url,
    streamUrl: pdsUrl.replace(/^http/, 'ws'),
    close: async () => {
      await network.close();
      await withClient(serverUrl, async (client) => {
        // The network names its schemas after ours, as a prefix or a suffix (appview_…, bsync_…, ozone_…).
        const { rows } = await client.query<{ nspname: string }>(
          'select nspname from pg_namespace where nspname like $1',
          [`%${schema}%`],
        );
        for (const row of rows) await client.query(`drop schema if exists "${row.nspname}" cascade`);
      });
    },
  };
}

type InMemoryDirectory = { contents: Record<string, Array<{ createdAt: Date }>> };

/**
 * Dates an account's creation in the local PLC directory (its genesis operation), as the directory would have for
 * an account created then: the anti-bot gate reads an account's age there (bluesky-account-age.ts), never from the
 * profile record. dev-env's directory keeps its operations in memory.
 */
export function backdateAccount(net: LocalAtprotoNetwork, did: string, at: Date): void {
  const directory = net.network.plc.ctx.db as unknown as InMemoryDirectory;
  const genesis = directory.contents[did]?.[0];
  if (!genesis) throw new Error(`the local PLC directory has no operation for ${did}`);
  genesis.createdAt = at;
}
