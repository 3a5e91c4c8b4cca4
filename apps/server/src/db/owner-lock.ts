import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processIdentity, processIsAlive, type ProcessIdentity } from './process-identity';

/** Who holds the embedded database: the server (takes commands over its socket) or an operator command. */
export type OwnerRole = 'server' | 'command';

/** What the lock file says (JSON, mode 0600): enough to check the holder is alive and to reach it. */
export type OwnerRecord = ProcessIdentity & {
  role: OwnerRole;
  token: string;
  startedAt: string;
  /** The Unix socket a server listens on for operator commands. */
  socket?: string;
};

export type OwnerLock = { record: OwnerRecord; release: () => Promise<void> };

/** The embedded database is held by a live process; the message says what to do instead. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: OwnerRecord,
  ) {
    const since = `pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}`;
    super(
      holder.role === 'server'
        ? `The embedded database in ${dataDir} is in use by the Manaboard server (${since}): stop it first, or set DATABASE_URL (PostgreSQL) to run several processes.`
        : `The embedded database in ${dataDir} is in use by an operator command (${since}); try again when it has finished.`,
    );
  }
}

export const lockFileOf = (dataDir: string) => path.join(dataDir, 'owner.lock');

/**
 * Tokens this process holds or is taking a lock with: a record of our own pid is live only if its token is
 * here (a second open in the same process is refused; a dead process whose pid we now have is not us).
 */
const heldHere = new Set<string>();

/**
 * Takes the owner lock of a data directory, or throws DatabaseInUseError naming the live holder.
 *
 * The lock is a file created with O_EXCL. A lock whose process is gone (crash, SIGKILL) is taken over, and
 * safely when several processes try at once: a taker first creates `owner.lock.claim-<dead token>` with
 * O_EXCL, so exactly one process may remove that stale lock; it removes it only if the file still holds the
 * dead token, then competes for a fresh O_EXCL create like anyone else. A taker that died holding a claim is
 * itself stale: the next one claims `claim-<its token>`, and so on, so every step has a single winner.
 */
export async function acquireOwnerLock(
  dataDir: string,
  role: OwnerRole,
  socket?: string,
): Promise<OwnerLock> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = lockFileOf(dataDir);
  const record: OwnerRecord = {
    ...processIdentity(process.pid),
    role,
    token: randomBytes(32).toString('hex'),
    startedAt: new Date().toISOString(),
    ...(socket ? { socket } : {}),
  };
  heldHere.add(record.token);
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (await createExclusive(file, record)) return held(file, record);
      const current = await readRecord(file);
      if (!current) continue; // released between our two calls
      if (isLive(current)) throw new DatabaseInUseError(dataDir, current);
      await removeStale(file, current, record);
    }
  } catch (error) {
    heldHere.delete(record.token);
    throw error;
  }
  heldHere.delete(record.token);
  throw new Error(`Could not take the lock ${file}: it keeps changing hands; try again.`);
}

/** Reads the lock of a data directory: undefined when nobody holds it (or its holder is gone). */
export async function liveOwner(dataDir: string): Promise<OwnerRecord | undefined> {
  const current = await readRecord(lockFileOf(dataDir));
  return current && isLive(current) ? current : undefined;
}

function held(file: string, record: OwnerRecord): OwnerLock {
  // A process that exits without closing the database leaves no lock behind (SIGKILL still does: see above).
  const onExit = () => releaseSync(file, record.token);
  process.once('exit', onExit);
  return {
    record,
    release: async () => {
      process.removeListener('exit', onExit);
      heldHere.delete(record.token);
      const current = await readRecord(file);
      if (current?.token === record.token) await fs.rm(file, { force: true });
    },
  };
}

function releaseSync(file: string, token: string): void {
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as OwnerRecord).token === token) unlinkSync(file);
  } catch {
    // nothing to release
  }
}

function isLive(record: OwnerRecord): boolean {
  if (record.pid === process.pid && record.hostname === os.hostname()) return heldHere.has(record.token);
  return processIsAlive(record);
}

/** One claim per dead token; only its winner removes the stale lock, and only while it is still that lock. */
async function removeStale(file: string, stale: OwnerRecord, me: OwnerRecord): Promise<void> {
  const claims: string[] = [];
  let deadToken = stale.token;
  for (let depth = 0; depth < 10; depth++) {
    const claim = `${file}.claim-${deadToken}`;
    if (await createExclusive(claim, me)) {
      claims.push(claim);
      const current = await readRecord(file);
      if (current?.token === stale.token) await fs.rm(file, { force: true });
      break;
    }
    const claimant = await readRecord(claim);
    if (!claimant) continue; // the winner finished and cleaned up: try this claim again
    if (isLive(claimant)) {
      await new Promise((resolve) => setTimeout(resolve, 50)); // someone is taking over right now
      return;
    }
    claims.push(claim); // its claimant died mid-takeover: claim that claim
    deadToken = claimant.token;
  }
  // Only a winner gets here with its own claim last; the dead claims below it are done with.
  if (claims.length > 0 && (await readRecord(claims[claims.length - 1] ?? ''))?.token === me.token) {
    for (const claim of claims.reverse()) await fs.rm(claim, { force: true });
  }
}

/**
 * Creates `file` holding the record, or returns false when it exists. The record is written to a private file
 * first and hard-linked into place (link never replaces a file), so nobody ever reads a half-written lock and a
 * crash never leaves an empty one.
 */
async function createExclusive(file: string, record: OwnerRecord): Promise<boolean> {
  const draft = `${file}.${record.token}.${randomBytes(4).toString('hex')}.draft`;
  const handle = await fs.open(draft, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify(record));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(draft, { force: true });
  }
}

async function readRecord(file: string): Promise<OwnerRecord | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<OwnerRecord>;
    return typeof parsed.pid === 'number' && typeof parsed.token === 'string'
      ? (parsed as OwnerRecord)
      : undefined;
  } catch {
    return undefined;
  }
}
