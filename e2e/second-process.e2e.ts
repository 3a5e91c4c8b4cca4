import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../scripts/build-lib.mjs';
import { freePort, startServer, type RunningServer } from './support/server';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** Reads pages, an asset of the current index.html and the API in a loop until stopped; counts what failed. */
function readThroughout(origin: string) {
  const failures: string[] = [];
  let requests = 0;
  let running = true;
  const get = async (url: string, accept = '*/*') => {
    const response = await fetch(`${origin}${url}`, { headers: { accept } });
    const body = await response.text();
    requests++;
    if (response.status < 200 || response.status > 299) failures.push(`${response.status} ${url}`);
    return body;
  };
  const loop = (async () => {
    while (running) {
      const html = await get('/', 'text/html');
      await get('/linked', 'text/html');
      const asset = /src="(\/assets\/[^"]+)"/.exec(html)?.[1];
      if (asset) await get(asset);
      await get('/api/mana?limit=20');
      await get('/api/public/announcements');
      await get('/healthz');
    }
  })();
  return {
    failures,
    requests: () => requests,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** `npm start`'s process (scripts/run.mjs: the built server) on its own data directory; stopped by `stop`. */
async function startBuilt(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-second-'));
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/run.mjs'), 'main'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second process exited:\n${errors}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the second process did not answer within 180 s:\n${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  return Object.assign(stop, { pid: child.pid ?? 0 });
}

// Issue 23: starting or restarting processes on one checkout (each on its own embedded database: one owner per
// data directory, ADR 008) never costs a client of the first one an error, nor does a web build switched in.
describe('a second process started on the same checkout', () => {
  let first: RunningServer;
  let checkout: string;
  beforeAll(async () => {
    // The web build as a checkout holds it (dist → .builds/<hash>), a copy of this checkout's, so the switch
    // below does not touch the build other test files serve.
    checkout = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-checkout-'));
    await ensureBuild(checkout, 'first', (outDir) =>
      fs.cp(path.join(repoRoot, 'apps/web/dist/'), outDir, { recursive: true, dereference: true }),
    );
    first = await startServer({ WEB_DIST_DIR: path.join(checkout, 'dist'), SEED_DEMO: 'false' });
  }, 180_000);
  afterAll(async () => {
    await first?.stop();
    await fs.rm(checkout, { recursive: true, force: true });
  });

  it('gives a client reading pages and the API 0 non-2xx answers throughout', async () => {
    const client = readThroughout(first.origin);
    try {
      const env = { WEB_DIST_DIR: path.join(checkout, 'dist'), SEED_DEMO: 'false', LOG_LEVEL: 'warn' };
      const stopSecond = await startBuilt(env);
      // A new build written file by file and switched in while both processes serve.
      await ensureBuild(checkout, 'second', async (outDir) => {
        for (const entry of await fs.readdir(path.join(checkout, 'dist'), { recursive: true })) {
          const from = path.join(checkout, 'dist', entry);
          if ((await fs.stat(from)).isDirectory()) continue;
          await fs.mkdir(path.dirname(path.join(outDir, entry)), { recursive: true });
          await fs.copyFile(from, path.join(outDir, entry));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
      await stopSecond();
      // A restart: the same again.
      const stopAgain = await startBuilt(env);
      await stopAgain();
    } finally {
      await client.stop();
    }
    expect(client.failures).toEqual([]);
    expect(client.requests()).toBeGreaterThan(50);
  }, 400_000);
});

// scripts/runtime-env.mjs: the server replaces itself once, in place, with its memory settings (issue 23).
describe.runIf(process.platform === 'linux')("npm start's process", () => {
  const settingsOf = async (pid: number) => ({
    flags: (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((a) => a.startsWith('--')),
    tunables: (await fs.readFile(`/proc/${pid}/environ`, 'utf8'))
      .split('\0')
      .find((v) => v.startsWith('GLIBC_TUNABLES=')),
  });

  it("runs with the gc extension under its own name, a young generation of at most 4 MB and glibc returning large blocks, keeping the operator's own settings", async () => {
    const env = { SEED_DEMO: 'false', LOG_LEVEL: 'warn' };
    const defaults = await startBuilt(env);
    try {
      // The same pid as spawned: replaced in place, not a second process.
      expect(await settingsOf(defaults.pid)).toEqual({
        flags: ['--expose-gc-as=__manaboardGc', '--max-semi-space-size=4'],
        tunables: 'GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072',
      });
    } finally {
      await defaults();
    }
    const own = await startBuilt({
      ...env,
      NODE_OPTIONS: '--max-semi-space-size=8',
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=2',
    });
    try {
      expect(await settingsOf(own.pid)).toEqual({
        flags: ['--expose-gc-as=__manaboardGc'],
        tunables: 'GLIBC_TUNABLES=glibc.malloc.arena_max=2',
      });
    } finally {
      await own();
    }
  }, 400_000);
});
