// Issue 32: the embedded database on a full disk, the `disk-full` fault of bench/faults.ts at small scale. As root:
// a 192 MB tmpfs holds a PGlite data directory (bench/lib/pglite-disk-full-child.ts writes to it in a loop); 3 s in,
// a ballast file (fallocate) takes every free block; 10 s later it is deleted; 10 s after that the writer gets
// SIGTERM. Run twice: with the server's free-space guard (apps/server/src/db/pglite-disk-guard.ts), and without it
// (a reserve of 0). Reported: whether the writer kept reporting (its event loop turned), stored again after the
// space returned, and stopped on SIGTERM.
// Without the guard the writer hangs inside PGlite at the first write that needs a new WAL segment on the full disk:
// it spins at ~80 % CPU, stores nothing after the space returns, and ignores SIGTERM (SIGKILL ends it; the data
// directory then opens and recovers). With it, writes are refused while the disk is under the reserve, with an
// error that says so, and go on once space returns.
// Usage (root, not in CI): npx tsx bench/pglite-disk-full.ts [guard|none …]. Figures: docs/benchmarks.md.
import { execFile, fork } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './lib/spawn-server';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Report = { ok: number; failed: number; lastError: string };

async function once(mode: 'guard' | 'none'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-disk-full-'));
  await run('mount', ['-t', 'tmpfs', '-o', 'size=192m', 'tmpfs', dir]);
  const child = fork(path.join(repoRoot, 'bench/lib/pglite-disk-full-child.ts'), [], {
    execPath: process.execPath,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_DISK_DIR: dir, ...(mode === 'none' ? { BENCH_DISK_RESERVE: '0' } : {}) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let last: Report = { ok: 0, failed: 0, lastError: '' };
  let lastAt = Date.now();
  child.on('message', (m) => {
    if (typeof m === 'object') {
      last = m as Report;
      lastAt = Date.now();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise((resolve) => child.once('message', resolve));
    await sleep(3_000);
    const ballast = path.join(dir, 'ballast');
    const stat = await fs.statfs(dir);
    await run('fallocate', ['-l', String(stat.bavail * stat.bsize), ballast]);
    child.send('full');
    await sleep(10_000);
    const whileFull = { ...last };
    await fs.rm(ballast);
    child.send('freed');
    await sleep(10_000);
    const silent = (Date.now() - lastAt) / 1000;
    const storedAgain = last.ok > whileFull.ok;
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(5_000).then(() => 'no exit' as const)]);
    if (code === 'no exit') child.kill('SIGKILL');
    return (
      `${mode === 'guard' ? 'with the guard' : 'without it'}: ${silent > 2 ? `SILENT for the last ${silent.toFixed(0)} s (event loop blocked)` : 'reporting'}; ` +
      `${storedAgain ? `stored again after the space returned (${last.ok - whileFull.ok} transactions)` : 'NOTHING stored after the space returned'}; ` +
      `${code === 'no exit' ? 'IGNORED SIGTERM (killed)' : 'stopped on SIGTERM'}; while full: ${whileFull.failed} refused` +
      (whileFull.lastError ? ` ("${whileFull.lastError.slice(0, 120)}")` : '')
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await run('umount', [dir]).catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const modes = process.argv.slice(2).length ? process.argv.slice(2) : ['guard', 'none'];
for (const mode of modes) console.log(await once(mode === 'none' ? 'none' : 'guard'));
