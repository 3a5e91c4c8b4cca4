import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { defaultEnvVariable } from '../config/child-env';
import { testEnv } from '../config/test-env';
import { fileURLToPath } from 'node:url';
import type { TestNetwork } from '@atproto/dev-env';
import { devEnvPort, prepareDevEnvPorts } from './dev-env-ports';
import { withClient } from './postgres-schema';
import { dropSchemasNamedAfter, holdingSchemaDropLock } from '../db/schema-drop-lock';

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
    // Its install script is off (allowScripts), so npm builds nothing for a machine its prebuilds do not cover.
    return `better-sqlite3 does not load here (${reason ?? 'unknown'}); its prebuilds cover Linux, macOS and Windows on x64 and arm64 (docs/operations.md, "Install scripts")`;
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
  // Its services migrate their schemas under the shared drop lock (db/schema-drop-lock.ts says why), after this
  // process has set up dev-env's port reservations (dev-env-ports.ts says why); the AppView's port is reserved there
  // too.
  const network = await withClient(serverUrl, async (client) => {
    await prepareDevEnvPorts(client);
    const appviewPort = await devEnvPort();
    return holdingSchemaDropLock(client, 'shared', () =>
      TestNetwork.create({
        dbPostgresUrl: serverUrl,
        dbPostgresSchema: schema,
        bsky: { port: appviewPort, publicUrl: `http://localhost:${appviewPort}` },
      }),
    );
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
      await withClient(serverUrl, (client) => dropSchemasNamedAfter(client, schema));
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

type AggregateUpdate = (db: unknown, indexed: unknown) => Promise<void>;
type AppViewIndexing = {
  db: { db: unknown };
  records: Record<'like' | 'repost' | 'post', { options: { updateAggregates: AggregateUpdate } }>;
};

/**
 * Has the local AppView count again the likes, reposts and replies of these posts, with its own aggregate code.
 * It updates a post's counts in a background queue after each commit, all at once: an update that read the count
 * before another like committed can write after it, and the count then stays one short until the next change
 * (seen in CI: 2 likes where 3 were indexed, for 90 s). This does what the next change would.
 */
export async function recountPostAggregates(
  net: LocalAtprotoNetwork,
  uris: readonly string[],
): Promise<void> {
  const indexing = (net.network.bsky.sub as unknown as { indexingSvc: AppViewIndexing }).indexingSvc;
  const db = indexing.db.db;
  for (const uri of uris) {
    // at://did/collection/rkey
    const creator = uri.split('/')[2];
    await indexing.records.like.options.updateAggregates(db, { subject: uri });
    await indexing.records.repost.options.updateAggregates(db, { subject: uri });
    await indexing.records.post.options.updateAggregates(db, { post: { replyParent: uri, creator } });
  }
}

/**
 * Changes an account's DID document in the local PLC directory with a real, signed operation (@did-plc/lib), as
 * the account's PDS would: signed with the PDS's rotation key, which dev-env's accounts list. `change` gets the
 * document's current operation and returns the new one's fields (e.g. another #atproto signing key: a key rotation).
 */
export async function updatePlcDocument(
  net: LocalAtprotoNetwork,
  did: string,
  change: (op: PlcOperationFields) => PlcOperationFields,
): Promise<void> {
  const plc = await import('@did-plc/lib');
  const client = new plc.Client(net.plcUrl);
  const last = await client.getLastOp(did);
  if (last.type === 'plc_tombstone') throw new Error(`${did} is a tombstone`);
  const op = await plc.createUpdateOp(last, net.network.pds.ctx.plcRotationKey, (normalized) => {
    const { prev: _prev, ...fields } = normalized;
    return change(fields);
  });
  await client.sendOperation(did, op);
}

export type PlcOperationFields = {
  type: 'plc_operation';
  rotationKeys: string[];
  verificationMethods: Record<string, string>;
  alsoKnownAs: string[];
  services: Record<string, { type: string; endpoint: string }>;
};
