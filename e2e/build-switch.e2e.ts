import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBuild } from '../scripts/build-lib.mjs';

const checkouts: string[] = [];
afterEach(async () => {
  await Promise.all(checkouts.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

/** A checkout's app directory of its own (`dist` → `.builds/<hash>`, as scripts/build-lib.mjs keeps it). */
async function appDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-build-switch-'));
  checkouts.push(dir);
  return dir;
}

const writeMain = (text: string) => async (outDir: string) => {
  await fs.mkdir(outDir, { recursive: true });
  await fs.writeFile(path.join(outDir, 'main.js'), text);
};

describe('switching builds (scripts/build-lib.mjs)', () => {
  it('builds again over what a process on a pruned build wrote back into its directory', async () => {
    const app = await appDir();
    // A process started on build "a" writes Node's compile cache into it (run.mjs) after builds "b", "c" and "d"
    // pruned it: the directory is back, holding only the cache.
    await fs.mkdir(path.join(app, '.builds', 'a', '.compile-cache'), { recursive: true });
    await fs.writeFile(path.join(app, '.builds', 'a', '.compile-cache', 'entry'), 'cache');
    await ensureBuild(app, 'a', writeMain('the build of a'));
    expect(await fs.readFile(path.join(app, 'dist', 'main.js'), 'utf8')).toBe('the build of a');
  });

  it('keeps a finished build of the same hash, and switches between builds', async () => {
    const app = await appDir();
    await ensureBuild(app, 'a', writeMain('first'));
    await ensureBuild(app, 'b', writeMain('second'));
    expect(await fs.readFile(path.join(app, 'dist', 'main.js'), 'utf8')).toBe('second');
    await ensureBuild(app, 'a', writeMain('never built: a is complete'));
    expect(await fs.readFile(path.join(app, 'dist', 'main.js'), 'utf8')).toBe('first');
  });
});
