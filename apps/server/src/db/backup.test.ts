import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { World } from '@manaboard/x-sim';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../composition/app';
import { loadConfig } from '../config/config';
import { testEnv } from '../config/test-env';
import { recordAudit } from '../modules/audit/audit.repository';
import { seedDemoIfEmpty } from '../modules/announcements/demo-seed';
import { insertReferral } from '../modules/referrals/referrals.repository';
import { linkMember, startManaHarness, type ManaHarness } from '../test/mana-harness';
import { testDatabaseKinds } from '../test/test-database';
import { backupDatabase, BackupError, restoreDatabase } from './backup';
import { openDatabase, type DatabaseHandle } from './database';

const START = Date.parse('2026-11-18T12:00:00Z');

/** Every row of every table of the current schema, in a stable order (what a restore must give back). */
async function tableRows(database: DatabaseHandle): Promise<Record<string, string[]>> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const schema = rows[0]?.schema;
  const tables = (await database.db.introspection.getTables({ withInternalKyselyTables: true }))
    .filter((t) => t.schema === schema)
    .map((t) => t.name)
    .sort();
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const result = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    out[table] = result.rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** What the community sees: leaderboard, posts, every breakdown, the announcements. */
async function publicView(get: (url: string) => Promise<{ status: number; body: unknown }>) {
  const mana = (await get('/api/mana?limit=100')).body as { data: { authors: { authorId: string }[] } };
  const breakdowns = [];
  for (const author of mana.data.authors) {
    breakdowns.push((await get(`/api/mana/${author.authorId}/breakdown`)).body);
  }
  return {
    mana,
    weekly: (await get('/api/mana?weekly=true')).body,
    posts: (await get('/api/posts')).body,
    breakdowns,
    announcements: (await get('/api/public/announcements')).body,
  };
}

describe.each(testDatabaseKinds())('backup and restore (%s)', (kind) => {
  let h: ManaHarness;
  let world: World;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-backup-'));
    world = new World(START);
    const ann = world.createUser({ username: 'ann' });
    const bob = world.createUser({ username: 'bob' });
    const cy = world.createUser({ username: 'cy_r' });
    world.addOrganic(world.createPost(ann.id, '#ManaBoard one', START - 60_000).id, { likes: 4, reposts: 1 });
    world.addOrganic(world.createPost(bob.id, '#ManaBoard two', START - 30_000).id, { likes: 2 });
    world.addOrganic(world.createPost(cy.id, 'Earning #ManaBoard Mana', START - 90_000).id, { replies: 3 });
    h = await startManaHarness(kind, world);
    const { account: annAccount } = await linkMember(h, ann, START - 3_600_000);
    const { account: bobAccount } = await linkMember(h, bob, START - 3_600_000);
    await insertReferral(h.database.db, {
      refereeAccountId: annAccount.id,
      referrerAccountId: bobAccount.id,
      rewardMana: 50,
      createdAt: new Date(START - 3_000_000),
    });
    await recordAudit(h.database.db, { actor: 'test', action: 'probe', subject: 'cy_r', details: { n: 1 } });
    await seedDemoIfEmpty(h.database.db, new Date(START));
    await h.worker.runCycle();
    // The snapshot below is of a settled database: the budget's ledger lines are written, not pending.
    await h.flushBudget();
  }, 180_000);
  afterAll(async () => {
    await h.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it(
    'round-trips a populated database: leaderboard, breakdowns, referrals, announcements and audit log',
    { timeout: 120_000 },
    async () => {
      const before = await publicView(h.get);
      const rows = await tableRows(h.database);
      // The fixture holds what the comparison is about.
      expect(before.mana.data.authors).toHaveLength(3);
      expect(rows.referrals).toHaveLength(1);
      expect(rows.audit_log?.length).toBeGreaterThan(0);
      expect(rows.announcements?.length).toBeGreaterThan(0);
      expect(rows.mana_totals?.length).toBeGreaterThan(0);

      const file = path.join(dir, kind === 'pglite' ? 'nested/backup.tar.gz' : 'backup.dump');
      const source =
        kind === 'pglite'
          ? { kind: 'pglite' as const, pglite: h.database.pglite ?? expect.fail('no PGlite instance') }
          : {
              kind: 'postgres' as const,
              url: testEnv.databaseUrl ?? '',
              schema: await currentSchema(h.database),
            };
      const { bytes } = await backupDatabase(source, file);
      expect(bytes).toBe((await fs.stat(file)).size);
      expect(bytes).toBeGreaterThan(1000);
      await expect(fs.stat(`${file}.partial`)).rejects.toThrow();

      // What happens after the backup is lost by the restore, as it should be.
      await h.database.db.deleteFrom('referrals').execute();
      await h.database.db.deleteFrom('audit_log').execute();
      await h.database.db.deleteFrom('announcements').execute();
      await h.database.db.updateTable('authors').set({ disqualified: true }).execute();

      if (source.kind === 'postgres') {
        await restoreDatabase({ kind: 'postgres', url: source.url }, file);
        expect(await tableRows(h.database)).toEqual(rows);
        expect(await publicView(h.get)).toEqual(before);
        return;
      }
      const dataDir = path.join(dir, 'data');
      expect(await restoreDatabase({ kind: 'pglite', dataDir }, file)).toEqual({ previous: undefined });
      // Restoring again keeps the data it replaces beside it.
      const again = await restoreDatabase({ kind: 'pglite', dataDir }, file);
      expect(again.previous).toMatch(/pglite\.before-restore-\d+$/);
      const restored = await openDatabase({ kind: 'pglite', dataDir });
      const app = await buildApp({
        config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' }),
        database: restored,
        simulatedWorld: world,
        clock: world.clock.asClientClock(),
        leaderboardCacheMs: 0,
      });
      try {
        expect(await tableRows(restored)).toEqual(rows);
        const get = async (url: string) => {
          const response = await app.inject({ url });
          return { status: response.statusCode, body: response.json() as unknown };
        };
        expect(await publicView(get)).toEqual(before);
      } finally {
        await app.close();
        await restored.close();
      }
    },
  );

  it('refuses a file of the other engine, a missing file and garbage, in one clear line, changing nothing', async () => {
    await fs.mkdir(path.join(dir, 'untouched'));
    const garbage = path.join(dir, 'garbage.bin');
    await fs.writeFile(garbage, 'not a backup at all');
    const target =
      kind === 'pglite'
        ? { kind: 'pglite' as const, dataDir: path.join(dir, 'untouched') }
        : { kind: 'postgres' as const, url: testEnv.databaseUrl ?? '' };
    await expect(restoreDatabase(target, garbage)).rejects.toThrow(BackupError);
    await expect(restoreDatabase(target, path.join(dir, 'missing.dump'))).rejects.toThrow(
      /No such backup file/,
    );
    if (kind === 'pglite') {
      const fake = path.join(dir, 'fake.tar.gz');
      await fs.writeFile(fake, Buffer.from([0x1f, 0x8b, 0, 0, 0, 0]));
      await expect(restoreDatabase(target, fake)).rejects.toThrow(/could not be loaded/);
      await expect(fs.readdir(path.join(dir, 'untouched'))).resolves.toEqual([]);
    }
  });
});

async function currentSchema(database: DatabaseHandle): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]?.schema ?? 'public';
}
