import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { runScript } from '../test/cli-process';
import { pgliteExtensions } from './pglite-extensions';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations/index';
import { initPgliteDataDir } from './pglite-init';
import type { Database } from './schema';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-pglite-init-'));
  dirs.push(dir);
  return dir;
};

/** Every file under `dir`, relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('a fresh PGlite data directory', () => {
  it("is loaded from the build's template when there is one (what the template holds is there), else made by initdb", async () => {
    // A template as the build makes it (a cluster closed cleanly), with a mark only a copy of it can explain.
    const template = path.join(await tempDir(), 'pglite-template');
    const source = await PGlite.create({ dataDir: template });
    await source.exec('create table made_from_template (id int); insert into made_from_template values (7)');
    await source.close();

    const fromTemplate = path.join(await tempDir(), 'pglite');
    await initPgliteDataDir(fromTemplate, undefined, template);
    // The copy holds every file of the template, byte for byte; the WAL segment's unwritten tail is a hole.
    const files = await filesUnder(template);
    expect(await filesUnder(fromTemplate)).toEqual(files);
    for (const file of files) {
      const [copied, original] = await Promise.all([
        fs.readFile(path.join(fromTemplate, file)),
        fs.readFile(path.join(template, file)),
      ]);
      expect(copied.equals(original), file).toBe(true);
    }
    const segment = files.find((file) => /^pg_wal\/[0-9A-F]{24}$/.test(file)) ?? '';
    const copiedSegment = await fs.stat(path.join(fromTemplate, segment));
    expect(copiedSegment.size).toBe(16 * 1024 * 1024);
    expect(copiedSegment.blocks * 512).toBeLessThan(copiedSegment.size);
    const loaded = await PGlite.create({ dataDir: fromTemplate });
    expect((await loaded.query('select id from made_from_template')).rows).toEqual([{ id: 7 }]);
    await loaded.close();

    // No template (or none where it should be): initdb, an empty cluster.
    const fresh = path.join(await tempDir(), 'pglite');
    await initPgliteDataDir(fresh, undefined, path.join(await tempDir(), 'missing'));
    const made = await PGlite.create({ dataDir: fresh });
    expect((await made.query("select to_regclass('made_from_template') as t")).rows).toEqual([{ t: null }]);
    await made.close();

    // A copy never leaves its staging directory behind.
    expect((await fs.readdir(path.dirname(fromTemplate))).sort()).toEqual(['pglite']);

    // An existing directory is left alone, template or not.
    await initPgliteDataDir(fresh, undefined, template);
    const again = await PGlite.create({ dataDir: fresh });
    expect((await again.query("select to_regclass('made_from_template') as t")).rows).toEqual([{ t: null }]);
    await again.close();
  }, 60_000);
});

describe("the build's template", () => {
  it('is migrated already: a first start copies it and finds no migration due', async () => {
    const template = path.join(await tempDir(), 'pglite-template');
    // What scripts/build.mjs runs (its built copy), from the sources.
    const made = await runScript('src/db/make-pglite-template.ts', [template], process.env);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);

    const dataDir = path.join(await tempDir(), 'pglite');
    await initPgliteDataDir(dataDir, undefined, template);
    const pglite = await PGlite.create({ dataDir, extensions: pgliteExtensions });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(db)).toEqual({ applied: [], freshDatabase: false });
    await db.destroy();
  }, 120_000);
});
