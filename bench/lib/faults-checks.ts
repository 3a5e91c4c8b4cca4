// The faults bench's checks after a run (the app stopped): the stored cursor and whether it was ever seen going
// back, the board against `npm run mana:rebuild`, and how long each fault took to recover from.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DatabaseOptions } from '../../apps/server/src/db/database';
import { openDatabase } from '../../apps/server/src/db/database';
import type { RelayConnection } from './faults-relay';
import type { FaultEvent, Sample } from './faults-watch';
import { repoRoot } from './spawn-server';
import { fmt } from './stats';

const run = promisify(execFile);

/** The board as stored: every period's totals and ranks, one line per author, sorted. */
export async function boardRows(where: DatabaseOptions): Promise<string[]> {
  const handle = await openDatabase(where);
  try {
    const rows = await handle.db
      .selectFrom('mana_totals')
      .select(['period', 'author_id', 'mana', 'posts', 'likes', 'replies', 'reposts', 'quotes', 'rank'])
      .execute();
    return rows
      .map((r) =>
        [r.period, r.author_id, r.mana, r.posts, r.likes, r.replies, r.reposts, r.quotes, r.rank].join(' '),
      )
      .sort();
  } finally {
    await handle.close();
  }
}

export async function storedSeq(where: DatabaseOptions): Promise<number | null> {
  const handle = await openDatabase(where);
  try {
    const row = await handle.db
      .selectFrom('ingest_state')
      .select('cursor')
      .where('job', '=', 'stream')
      .executeTakeFirst();
    const seq = (row?.cursor as { seq?: unknown } | undefined)?.seq;
    return typeof seq === 'number' ? seq : null;
  } finally {
    await handle.close();
  }
}

/** `npm run mana:rebuild` as an operator runs it (the server stopped: the command opens the database itself). */
export async function rebuild(env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await run('npm', ['run', '--silent', 'mana:rebuild'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  // Its answer is its stdout's last line (a build first writes to stderr).
  return (stdout.trim() || stderr.trim()).split('\n').at(-1) ?? '';
}

/** The board's lines that the rebuild changed, paired by period and author: the board's line, then the rebuild's. */
export function boardDifferences(before: string[], after: string[]): string[] {
  const afterSet = new Set(after);
  const beforeSet = new Set(before);
  const key = (r: string) => r.split(' ').slice(0, 2).join(' ');
  const afterByKey = new Map(after.map((r) => [key(r), r]));
  return [
    ...before.filter((r) => !afterSet.has(r)).map((r) => `${r} → ${afterByKey.get(key(r)) ?? 'absent'}`),
    ...after
      .filter((r) => !beforeSet.has(r) && !before.some((b) => key(b) === key(r)))
      .map((r) => `absent → ${r}`),
  ];
}

/**
 * The stored cursor, seen going back: each connection's cursor (exact), the metrics' lag (within its 0.1 s
 * rounding and the sample's time: 250 ms), and on PostgreSQL the cursor read every 100 ms (exact).
 */
export function cursorWentBack(
  readers: readonly RelayConnection[],
  samples: readonly Sample[],
  seqs: readonly number[],
): string[] {
  const cursorBack: string[] = [];
  for (let k = 1; k < readers.length; k++) {
    const [a, b] = [readers[k - 1]?.cursor, readers[k]?.cursor];
    if (a !== null && a !== undefined && (b === null || b === undefined || b < a))
      cursorBack.push(`connection ${k + 1} asked ${b} after ${a}`);
  }
  // A sample's cursor is at most its answer's time − lag (+ the rounding), at least its request's time − lag: it
  // went back only when a sample's most is below an earlier sample's least.
  let low = -Infinity;
  for (const s of samples) {
    if (s.cursorTime === null || s.cursorLow === null) continue;
    if (s.cursorTime + 50 < low)
      cursorBack.push(`metrics: at least ${fmt(low - s.cursorTime - 50, 0)} ms back`);
    low = Math.max(low, s.cursorLow);
  }
  for (let k = 1; k < seqs.length; k++)
    if ((seqs[k] ?? 0) < (seqs[k - 1] ?? 0))
      cursorBack.push(`PostgreSQL: seq ${seqs[k]} after ${seqs[k - 1]}`);
  return cursorBack;
}

export type Recovered = FaultEvent & { recoverSeconds: number | null; lagAfter: number | null };

/** Each fault's time to recover: until a sample saw the stored cursor past where it stood at the fault. */
export function recoveries(events: readonly FaultEvent[], samples: readonly Sample[]): Recovered[] {
  return events.map((e) => {
    const from = e.cursorTime ?? -Infinity;
    const s = samples.find((x) => x.at > e.at && x.cursorTime !== null && x.cursorTime > from + 200);
    return { ...e, recoverSeconds: s ? (s.at - e.at) / 1000 : null, lagAfter: s?.lag ?? null };
  });
}
