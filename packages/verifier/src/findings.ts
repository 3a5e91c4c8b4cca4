/**
 * What the verifier found wrong, by kind: `format` (a line that cannot be read, is not canonical, or is out of
 * order or place), `lines` (a line that contradicts the rules or itself), `totals` (the end line), `ranks`.
 * Members whose Mana differs and records are kept apart (member-check.ts, record-check.ts).
 */
export type FindingKind = 'format' | 'lines' | 'totals' | 'ranks';

export type Finding = { kind: FindingKind; line: number | null; message: string };

/** Keeps every count but only the first `keep` findings of each kind, so a hostile ledger cannot fill memory. */
export class Findings {
  private readonly kept = new Map<FindingKind, Finding[]>();
  private readonly counts = new Map<FindingKind, number>();

  constructor(private readonly keep = 50) {}

  add(kind: FindingKind, line: number | null, message: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const list = this.kept.get(kind) ?? [];
    if (list.length < this.keep) list.push({ kind, line, message });
    this.kept.set(kind, list);
  }

  count(kind: FindingKind): number {
    return this.counts.get(kind) ?? 0;
  }

  list(kind: FindingKind): readonly Finding[] {
    return this.kept.get(kind) ?? [];
  }

  total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }
}
