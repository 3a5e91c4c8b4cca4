import type pg from 'pg';

/** The advisory-lock key of schema drops on a shared PostgreSQL server ('MBDS' in ASCII). */
export const SCHEMA_DROP_LOCK_KEY = 0x4d424453;

/**
 * Kysely's migrator introspects the tables of every schema on the server (`has_schema_privilege` and
 * `pg_get_serial_sequence`, by schema name), so a schema that another process drops during that scan fails the
 * migration with "schema … does not exist" (3F000), though the migrating schema is intact. Our own migrations try
 * again then (db/migrate.ts), but the local AT Protocol network's services (bsync, the AppView, Ozone) migrate
 * inside `TestNetwork.create`, which cannot be retried without leaking the servers it already started.
 *
 * So whoever starts such a network holds this lock shared for the time it takes, and whoever drops a schema on
 * the same server (the test files, the Bluesky demo) holds it exclusively for the drop: drops wait for the
 * networks that are starting, and networks never start during a drop. The lock is session-level on `client`,
 * released when `use` settles (or when the connection closes, should the process die). `key` is for the lock's
 * own test, which must not queue behind the other test files' drops.
 */
export function holdingSchemaDropLock<T>(
  client: pg.Client,
  mode: 'shared' | 'exclusive',
  use: () => Promise<T>,
  key: number = SCHEMA_DROP_LOCK_KEY,
): Promise<T> {
  return holdingAdvisoryLock(client, key, mode, use);
}

/** Runs `use` holding the session-level advisory lock `key` on `client`, shared or exclusive. */
export async function holdingAdvisoryLock<T>(
  client: pg.Client,
  key: number,
  mode: 'shared' | 'exclusive',
  use: () => Promise<T>,
): Promise<T> {
  const suffix = mode === 'shared' ? '_shared' : '';
  await client.query(`select pg_advisory_lock${suffix}($1)`, [key]);
  try {
    return await use();
  } finally {
    await client.query(`select pg_advisory_unlock${suffix}($1)`, [key]);
  }
}

/** Drops each schema (`cascade`) under the exclusive lock above. */
export async function dropSchemasLocked(
  client: pg.Client,
  names: readonly string[],
  key: number = SCHEMA_DROP_LOCK_KEY,
): Promise<void> {
  if (names.length === 0) return;
  await holdingSchemaDropLock(
    client,
    'exclusive',
    async () => {
      for (const name of names)
        await client.query(`drop schema if exists ${client.escapeIdentifier(name)} cascade`);
    },
    key,
  );
}

/**
 * Drops every schema whose name holds `fragment` (a local AT Protocol network names its schemas after the one it is
 * given, as a prefix or a suffix: appview_…, bsync_…, ozone_…), under the exclusive lock above.
 */
export async function dropSchemasNamedAfter(client: pg.Client, fragment: string): Promise<void> {
  const { rows } = await client.query<{ nspname: string }>(
    'select nspname from pg_namespace where nspname like $1',
    [`%${fragment}%`],
  );
  await dropSchemasLocked(
    client,
    rows.map((row) => row.nspname),
  );
}
