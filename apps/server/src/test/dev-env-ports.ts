import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { holdingAdvisoryLock } from '../db/schema-drop-lock';

/** The advisory-lock key under which a process sets up dev-env's shared port directory ('MBDP' in ASCII). */
export const DEV_ENV_PORTS_LOCK_KEY = 0x4d424450;

let prepared: Promise<void> | undefined;

/**
 * @atproto/dev-env reserves ports across processes in a shared directory (`$TMPDIR/atproto-dev-env-ports-<uid>`).
 * Each process's first reservation creates its owner file and then writes its pid into it, and sweeps the files
 * whose pid is not a running process. A sweep that reads another process's owner file between its creation and its
 * write reads no pid and deletes it; that process then fails its reservation ("ENOENT: … link '.owner-…' ->
 * '.sweep-…'", seen with two test files starting networks at once) and, dev-env keeping the failed set-up, every
 * later one. So each process makes its first reservation (the directory's set-up) here, under an exclusive advisory
 * lock on `client`'s server, before it starts a network: no set-up overlaps another's sweep. Once per process; the
 * port reserved is left unused (dev-env frees it when the process exits).
 */
export function prepareDevEnvPorts(client: pg.Client, key: number = DEV_ENV_PORTS_LOCK_KEY): Promise<void> {
  prepared ??= holdingAdvisoryLock(client, key, 'exclusive', async () => {
    await (
      await devEnvGetPort()
    )();
  }).catch((error: unknown) => {
    prepared = undefined;
    throw error;
  });
  return prepared;
}

/**
 * dev-env's own `getPort` (not exported by the package): the same module its network imports, by the same file,
 * so its set-up is the one the network then uses.
 */
async function devEnvGetPort(): Promise<() => Promise<number>> {
  const main = createRequire(import.meta.url).resolve('@atproto/dev-env');
  const url = pathToFileURL(path.join(path.dirname(main), 'get-port.js')).href;
  const mod = (await import(url)) as { default: () => Promise<number> };
  return mod.default;
}

/**
 * A port reserved through dev-env's own directory, so no other process's network (whose ports dev-env reserves the
 * same way) takes it before the service listens: a port that was merely free a moment ago (free-port.ts) was taken
 * by another test file's network now and then ("EADDRINUSE" when the AppView started).
 */
export async function devEnvPort(): Promise<number> {
  return (await devEnvGetPort())();
}
