import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Enough to tell later whether a process is still the one that wrote a lock. A pid alone is not: after a
 * crash the pid may belong to someone else (in a container the server is always pid 1), so on Linux the
 * kernel's boot id and the process's start time (in clock ticks since boot) are kept as well.
 */
export type ProcessIdentity = { pid: number; hostname: string; bootId?: string; startTicks?: string };

export function processIdentity(pid: number): ProcessIdentity {
  const bootId = readProc('/proc/sys/kernel/random/boot_id')?.trim();
  const startTicks = startTicksOf(pid);
  return {
    pid,
    hostname: os.hostname(),
    ...(bootId ? { bootId } : {}),
    ...(startTicks ? { startTicks } : {}),
  };
}

/**
 * True unless the process is known to be gone. A lock written on another host (or container hostname) cannot be
 * checked from here, so it counts as alive: refusing is safe, taking over a live database is not.
 */
export function processIsAlive(identity: ProcessIdentity): boolean {
  if (identity.hostname !== os.hostname()) return true;
  const now = processIdentity(identity.pid);
  if (identity.bootId && now.bootId && identity.bootId !== now.bootId) return false; // rebooted since
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists but belongs to another user; fall through to the start-time check.
  }
  if (identity.startTicks && now.startTicks && identity.startTicks !== now.startTicks) return false;
  return statFields(identity.pid)?.[0] !== 'Z'; // a killed process not yet reaped by its parent is gone
}

/** Field 22 of /proc/<pid>/stat (counted after the command name, which may hold spaces and parentheses). */
function startTicksOf(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** /proc/<pid>/stat from field 3 (state) on; undefined off Linux or when the process is gone. */
function statFields(pid: number): string[] | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : undefined;
}

function readProc(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
