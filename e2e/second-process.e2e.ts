import { spawn, spawnSync } from 'node:child_process';
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

/**
 * `npm start`'s process (scripts/run.mjs: the built server) on its own data directory, with node's `flags` before
 * the script (none: as started by hand); stopped by `stop`.
 */
async function startBuilt(env: Record<string, string>, flags: readonly string[] = []) {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-second-'));
  const child = spawn(process.execPath, [...flags, path.join(repoRoot, 'scripts/run.mjs'), 'main'], {
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

// scripts/runtime-env.mjs: the server's V8 settings, on node's command line in `npm start` (issue 23, issue 33).
describe.runIf(process.platform === 'linux')("npm start's process", () => {
  const settingsOf = async (pid: number) => ({
    flags: (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((a) => a.startsWith('--')),
    tunables: (await fs.readFile(`/proc/${pid}/environ`, 'utf8'))
      .split('\0')
      .find((v) => v.startsWith('GLIBC_TUNABLES=')),
  });
  /** node's flags in a package.json's `start` script (`node <flags> <script> main`). */
  const startFlags = async (packageJson: string) => {
    const { scripts } = JSON.parse(await fs.readFile(packageJson, 'utf8')) as {
      scripts: Record<string, string>;
    };
    return (scripts.start ?? '').split(' ').filter((word) => word.startsWith('--'));
  };
  /** Whether runtime-env.mjs, run with these node flags and environment, would start the process again. */
  const restarts = (flags: readonly string[], env: Record<string, string> = {}) => {
    const script = `process.execve = (file, args) => console.log(JSON.stringify(args.slice(1)));
      await import(${JSON.stringify(path.join(repoRoot, 'scripts/runtime-env.mjs'))});`;
    const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script, '--', 'main'], {
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const printed = run.stdout.trim();
    return printed
      ? (JSON.parse(printed) as string[]).filter((a) => a.startsWith('--') && a !== '--input-type=module')
      : false;
  };
  const settings = ['--expose-gc-as=__manaboardGc', '--max-semi-space-size=4'];
  /**
   * Whether glibc's mmap threshold stays fixed once runtime-env.mjs has run (as the server's first import): after an
   * 8 MB block is freed, a 1 MB block is still mapped on its own (glibc's raised threshold would serve it from its
   * heap, kept once freed).
   */
  const thresholdFixed = (env: Record<string, string> = {}) => {
    const script = `const koffi = (await import('koffi')).default;
      await import(${JSON.stringify(path.join(repoRoot, 'scripts/runtime-env.mjs'))});
      const libc = koffi.load('libc.so.6');
      const malloc = libc.func('void *malloc(size_t size)');
      const free = libc.func('void free(void *ptr)');
      koffi.struct('mallinfo2_t', Object.fromEntries(['arena', 'ordblks', 'smblks', 'hblks', 'hblkhd', 'usmblks',
        'fsmblks', 'uordblks', 'fordblks', 'keepcost'].map((field) => [field, 'size_t'])));
      const mapped = () => Number(libc.func('mallinfo2_t mallinfo2()')().hblks);
      free(malloc(8 * 1024 * 1024));
      const before = mapped();
      const block = malloc(1024 * 1024);
      console.log(mapped() === before + 1);
      free(block);`;
    const run = spawnSync(
      process.execPath,
      [...settings, '--input-type=module', '-e', script, '--', 'main'],
      {
        cwd: repoRoot,
        env: { ...process.env, NODE_OPTIONS: '', ...env },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    return run.stdout.trim() === 'true';
  };

  it("gives them on node's command line, so the server starts once; started another way, it restarts once with them", async () => {
    expect(await startFlags(path.join(repoRoot, 'package.json'))).toEqual(settings);
    expect(await startFlags(path.join(repoRoot, 'apps/server/package.json'))).toEqual(settings);
    expect(restarts(settings)).toBe(false);
    expect(restarts([])).toEqual(settings);
    expect(restarts(['--expose-gc-as=__manaboardGc'])).toEqual([
      '--max-semi-space-size=4',
      ...settings.slice(0, 1),
    ]);
    // The operator's NODE_OPTIONS: node reads them before its command line, so the command line's would win.
    expect(restarts(settings, { NODE_OPTIONS: '--max-semi-space-size=8' })).toEqual(settings.slice(0, 1));
    expect(restarts(settings.slice(0, 1), { NODE_OPTIONS: '--max-semi-space-size=8' })).toBe(false);
  });

  it("fixes glibc's mmap threshold as the process starts, unless GLIBC_TUNABLES is set", () => {
    expect(thresholdFixed()).toBe(true);
    expect(thresholdFixed({ GLIBC_TUNABLES: '' })).toBe(false);
  });

  it("runs with the gc extension under its own name and a young generation of at most 4 MB, keeping the operator's own settings; glibc's environment untouched", async () => {
    const env = { SEED_DEMO: 'false', LOG_LEVEL: 'warn' };
    const started = await startBuilt(env, settings);
    try {
      expect(await settingsOf(started.pid)).toEqual({ flags: settings, tunables: undefined });
    } finally {
      await started();
    }
    // Started by hand: the same pid as spawned, replaced in place, not a second process.
    const byHand = await startBuilt(env);
    try {
      expect(await settingsOf(byHand.pid)).toEqual({ flags: settings, tunables: undefined });
    } finally {
      await byHand();
    }
    const own = await startBuilt(
      { ...env, NODE_OPTIONS: '--max-semi-space-size=8', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' },
      settings,
    );
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
