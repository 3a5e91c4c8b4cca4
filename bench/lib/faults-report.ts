// One fault run's outcome, and how the faults bench prints it (the figures of docs/benchmarks.md, "Faults at full
// speed (issue 32)").
import type { DistinctCheck } from './distinct-check';
import type { Recovered } from './faults-checks';
import type { Fault } from './faults-inject';
import { fmt, median } from './stats';

export type Outcome = {
  fault: Fault;
  frames: number;
  backlogSeconds: number;
  events: Recovered[];
  catchUpSeconds: number;
  /** The stream's connections to the relay: the cursor each asked (in order), and the doctor's probes. */
  cursors: Array<number | null>;
  probes: number;
  cursorBack: string[];
  finalSeq: number | null;
  check: DistinctCheck;
  board: { rows: number; equal: boolean; differences: string[] };
  http: { ok: number; fiveXx: number; unreachable: number };
  errors: Map<string, number>;
  replayedSeq: number;
  disorder: { swap: number; back: number; frames: number };
  notes: string[];
};

export function report(o: Outcome): void {
  const c = o.check;
  const exact =
    c.posts.exact === c.posts.expected &&
    c.official.exact === c.official.expected &&
    c.likes.counted === c.likes.expected &&
    c.reposts.counted === c.reposts.expected &&
    c.strays === 0;
  const recover = o.events.map((e) => e.recoverSeconds).filter((s): s is number => s !== null);
  console.log(
    `  ${o.fault}: ${o.events.length} events; backlog ${fmt(o.backlogSeconds / 60, 1)} min, caught up in ` +
      `${fmt(o.catchUpSeconds, 1)} s (${fmt(o.frames / o.catchUpSeconds, 0)} frames/s with the faults); ` +
      `recovered in median ${fmt(median(recover), 1)} s, max ${fmt(Math.max(...recover), 1)} s` +
      (recover.length < o.events.length ? ` (${o.events.length - recover.length} never seen moving on)` : ''),
  );
  for (const e of o.events)
    console.log(
      `    ${e.kind}: lag before ${fmt(e.lag ?? Number.NaN, 1)} s, after ${fmt(e.lagAfter ?? Number.NaN, 1)} s, ` +
        `stored again after ${e.recoverSeconds === null ? '—' : fmt(e.recoverSeconds, 1)} s`,
    );
  console.log(
    `    counts ${exact ? 'EXACT' : 'NOT EXACT'}: ${c.posts.exact}/${c.posts.expected} programme posts and ` +
      `${c.official.exact}/${c.official.expected} official posts exact; likes ${c.likes.counted}/${c.likes.expected}, ` +
      `reposts ${c.reposts.counted}/${c.reposts.expected}; ${c.strays} stray rows` +
      (c.wrong.length ? `; wrong: ${c.wrong.slice(0, 3).join('; ')}` : ''),
  );
  console.log(
    `    cursor: final seq ${o.finalSeq} of ${o.frames}; ${o.cursors.length} connections (and ${o.probes} probes) asked ` +
      `${o.cursors.slice(0, 12).join(', ')}${o.cursors.length > 12 ? ', …' : ''}; ` +
      (o.cursorBack.length ? `WENT BACK: ${o.cursorBack.slice(0, 5).join('; ')}` : 'never seen going back'),
  );
  console.log(
    `    board ${o.board.equal ? '= rebuild' : '≠ rebuild'} (${o.board.rows} rows of mana_totals)` +
      (o.board.differences.length
        ? ` (period author mana posts likes replies reposts quotes rank), ${o.board.differences.length} differ: ${o.board.differences.slice(0, 4).join('; ')}`
        : '') +
      `; the board meanwhile: ${o.http.ok} answers < 500, ${o.http.fiveXx} 5xx, ${o.http.unreachable} unreachable`,
  );
  if (o.fault === 'disorder' || o.replayedSeq > 0)
    console.log(
      `    skipped as replayed-seq: ${o.replayedSeq} (the last process's count); sent out of order: ` +
        `${o.disorder.swap} swaps, ${o.disorder.back} steps back (${o.disorder.frames} frames)`,
    );
  if (o.errors.size)
    console.log(
      `    the app's errors: ${[...o.errors]
        .slice(0, 6)
        .map(([m, n]) => `${n}× ${m}`)
        .join(' | ')}`,
    );
  for (const n of o.notes) console.log(`    ${n}`);
}
