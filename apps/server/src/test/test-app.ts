import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config/config';
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
  options: { announcementsCacheMs?: number } = {},
): Promise<TestApp> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', SEED_DEMO: 'false', ...env });
  const database = await openTestDatabase(kind);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = await buildApp({ config, database, logStream, ...options });
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
