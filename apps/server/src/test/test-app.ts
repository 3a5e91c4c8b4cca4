import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../composition/app';
import type { World } from '@manaboard/x-sim';
import { loadConfig, type Config, type XConfig } from '../config/config';
import type { Clock } from '../integrations/x/clock';
import type { DatabaseHandle } from '../db/database';
import { openTestDatabase, type TestDatabaseKind } from './test-database';

export type TestApp = {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** Every log line the app wrote, as raw JSON text. */
  logs: string[];
  close: () => Promise<void>;
};

/** Builds the real app on a fresh database of the given kind, capturing its logs. */
export async function buildTestApp(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: {
    announcementsCacheMs?: number;
    /** A simulated X of the test's own (startSimulatedX): its config, world and clock. */
    sim?: { config: XConfig; world: World };
    /** The world of the simulated X mounted at /x-sim (default: the large demo world). */
    world?: World;
    /** Shared by apps that stand for several processes on one Redis (default: one per app). */
    rateLimitNamespace?: string;
    /** Sees every route as it is registered. */
    onRoute?: (route: { method: string | string[]; url: string }) => void;
  } = {},
): Promise<TestApp> {
  const loaded = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    // A key per app: tests never write a key file into DATA_DIR.
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    ...env,
  });
  const config = options.sim ? { ...loaded, x: options.sim.config } : loaded;
  const clock: Clock | undefined = options.sim?.world.clock.asClientClock();
  const database = await openTestDatabase(kind);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = await buildApp({
    config,
    database,
    logStream,
    rateLimitNamespace: options.rateLimitNamespace ?? `mb-test-${randomBytes(6).toString('hex')}:`,
    ...(options.announcementsCacheMs !== undefined
      ? { announcementsCacheMs: options.announcementsCacheMs }
      : {}),
    ...(options.sim || options.world ? { simulatedWorld: options.sim?.world ?? options.world } : {}),
    ...(clock ? { clock } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    logs,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
