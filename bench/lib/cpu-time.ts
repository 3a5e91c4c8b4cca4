import fs from 'node:fs/promises';

/** CPU time (user + system) a process has used so far, in µs (Linux /proc; clock ticks of 10 ms). */
export async function cpuMicros(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The resident set of every process in `group`, by pid (Linux /proc). */
export async function groupRss(group: number): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid pgrp … ; rss is field 24 (pages).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      found.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** The process of `group` with the largest resident set: the server `npm start` started (Linux /proc). */
export async function largestInGroup(group: number): Promise<number | undefined> {
  let best: { pid: number; rss: number } | undefined;
  for (const [pid, rss] of await groupRss(group)) if (!best || rss > best.rss) best = { pid, rss };
  return best?.pid;
}
