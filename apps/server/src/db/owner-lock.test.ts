import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireOwnerLock, DatabaseInUseError, liveOwner, lockFileOf, type OwnerRecord } from './owner-lock';
import { processIdentity } from './process-identity';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** The identity of a process that has exited (its pid is free, or someone else's by now). */
function deadProcess(): OwnerRecord {
  const pid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
  return {
    ...processIdentity(process.pid),
    pid,
    startTicks: '1',
    role: 'server',
    token: 'f'.repeat(64),
    startedAt: new Date(0).toISOString(),
  };
}

describe('the owner lock of a data directory', () => {
  it('is held by one opener at a time, private to its user, and free again once released', async () => {
    const dir = await freshDir();
    const lock = await acquireOwnerLock(dir, 'server', path.join(dir, 'owner.sock'));
    expect((await fs.stat(lockFileOf(dir))).mode & 0o777).toBe(0o600);
    expect(await liveOwner(dir)).toEqual(lock.record);
    const refused = await acquireOwnerLock(dir, 'command').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseInUseError);
    expect((refused as DatabaseInUseError).message).toMatch(
      /in use by the Manaboard server \(pid \d+ .*\): stop it first, or set DATABASE_URL/,
    );
    await lock.release();
    expect(await liveOwner(dir)).toBeUndefined();
    await (await acquireOwnerLock(dir, 'command')).release();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('takes over the lock of a dead process, and only one of many concurrent takers wins', async () => {
    const dir = await freshDir();
    const stale = deadProcess();
    await fs.writeFile(lockFileOf(dir), JSON.stringify(stale));
    expect(await liveOwner(dir)).toBeUndefined();

    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => acquireOwnerLock(dir, 'command')),
    );
    const won = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    const refused = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(7);
    for (const reason of refused) expect(reason).toBeInstanceOf(DatabaseInUseError);
    expect(JSON.parse(await fs.readFile(lockFileOf(dir), 'utf8'))).toEqual(won[0]?.record);
    await won[0]?.release();
    expect(await fs.readdir(dir)).toEqual([]); // no claim or draft file left behind
  });

  it('takes over when the taker before it died holding its claim', async () => {
    const dir = await freshDir();
    const stale = deadProcess();
    const deadTaker = { ...deadProcess(), token: 'e'.repeat(64) };
    await fs.writeFile(lockFileOf(dir), JSON.stringify(stale));
    await fs.writeFile(`${lockFileOf(dir)}.claim-${stale.token}`, JSON.stringify(deadTaker));
    const lock = await acquireOwnerLock(dir, 'server');
    expect(await liveOwner(dir)).toEqual(lock.record);
    await lock.release();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('refuses, without taking over, a lock written on another host (its process cannot be checked)', async () => {
    const dir = await freshDir();
    const elsewhere = { ...deadProcess(), hostname: `not-${os.hostname()}` };
    await fs.writeFile(lockFileOf(dir), JSON.stringify(elsewhere));
    await expect(acquireOwnerLock(dir, 'command')).rejects.toBeInstanceOf(DatabaseInUseError);
    expect(JSON.parse(await fs.readFile(lockFileOf(dir), 'utf8'))).toEqual(elsewhere);
  });
});
