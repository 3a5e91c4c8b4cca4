import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the calling thread's CPU priority to `nice` (Linux only; returns whether it did), never raising it: a
 * thread already at `nice` or lower in priority (a server started under `nice -n 15`) stays. On Linux a nice value is
 * a thread's own (setpriority of pid 0 is the calling thread), so a worker thread that calls this yields the cores to
 * the serving thread whenever both want one, and runs at full speed when the serving thread is idle. Elsewhere
 * (macOS, Windows) the same call would lower the whole process, so nothing is done. Raising it back would need a
 * privilege: a thread lowers itself once, for its life. Threads it starts afterwards inherit its nice (Linux); the
 * process's shared ones (V8's platform workers, libuv's pool) are started by the serving thread before.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    if (getPriority() >= nice) return false;
    setPriority(nice);
    return true;
  } catch {
    // A sandbox that forbids setpriority: the thread runs at the process's priority, as before.
    return false;
  }
}
