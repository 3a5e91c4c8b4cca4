import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { initPgliteDataDir } from './pglite-init';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-pglite-init-'));
  dirs.push(dir);
  return dir;
};

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
