import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../composition/app';
import { loadConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { openTestDatabase } from './test-database';

/** The real app listening on a free port of 127.0.0.1, for tests that speak raw HTTP to it (raw-http.ts). */
export type RawServer = {
  app: FastifyInstance;
  port: number;
  /** Every log line so far, parsed. */
  logLines: () => Array<{ level: number; msg?: string; code?: string }>;
  close: () => Promise<void>;
};

/**
 * Builds the app on a fresh PGlite with `env` over the test defaults, adds `/api/probe/slow` (every method; it
 * answers after 50 ms, as a route reading a remote database would, so a client's next bytes or its end arrive
 * while the answer is being made), and listens on an ephemeral port.
 */
export async function startRawServer(env: Record<string, string> = {}): Promise<RawServer> {
  const database: DatabaseHandle = await openTestDatabase('pglite');
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const config = loadConfig({ LOG_LEVEL: 'debug', SEED_DEMO: 'false', ...env });
  const app = await buildApp({ config, database, logStream });
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/api/probe/slow',
    handler: async () => {
      await sleep(50);
      return { success: true, slow: true };
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    port: (app.server.address() as AddressInfo).port,
    logLines: () => logs.map((line) => JSON.parse(line) as { level: number; msg?: string }),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
