import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { dropSchemasLocked } from '../db/schema-drop-lock';

export type ScratchSchema = {
  name: string;
  /** A DATABASE_URL for processes: the server URL with `search_path` set to this schema. */
  url: string;
  drop: () => Promise<void>;
};

/**
 * A new, empty schema on the PostgreSQL server at `serverUrl` and the DATABASE_URL that puts a process in it
 * (`?options=-c search_path=…`, read by node-postgres), for tests that start the server as separate processes.
 * `applicationName` tags those processes' connections, so a test can find them in pg_stat_activity.
 */
export async function createScratchSchema(
  serverUrl: string,
  applicationName: string,
): Promise<ScratchSchema> {
  const name = `mb_proc_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`create schema ${name}`));
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  url.searchParams.set('application_name', applicationName);
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withClient(serverUrl, (client) => dropSchemasLocked(client, [name]));
    },
  };
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
