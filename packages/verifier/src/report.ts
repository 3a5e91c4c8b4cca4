import type { Finding, FindingKind } from './findings';
import type { MemberDifference } from './member-check';
import type { Publication } from './published-check';
import type { RecordTally } from './record-run';

/** Everything a run found, as `--json` prints it; `renderReport` writes it for people. */
export type Report = {
  origin: string;
  week: string | null;
  edition: number | null;
  state: 'open' | 'closed' | null;
  /** What stopped or shortened the run (an unreadable index, a broken download), one sentence each. */
  problems: string[];
  notes: string[];
  ledger: { url: string; bytes: number; lines: number; sha256: string } | null;
  hash: { index: string | null; matches: boolean | null };
  publication: Publication | { status: 'unpublished' | 'not applicable'; detail: string } | null;
  findings: Record<FindingKind, { count: number; examples: Finding[] }>;
  members: { total: number; differing: number; differences: MemberDifference[] };
  records: (RecordTally & { named: number; notTraceable: number }) | null;
  sampling: { rate: number; bound: number; eligible: number } | null;
  result: 'consistent' | 'differences' | 'incomplete';
  exitCode: 0 | 1 | 3;
};

/** 1 on any difference; 3 when nothing differs but something could not be checked; 0 when all is consistent. */
export function judge(report: Omit<Report, 'result' | 'exitCode'>): Pick<Report, 'result' | 'exitCode'> {
  const findings = Object.values(report.findings).reduce((n, f) => n + f.count, 0);
  const faults =
    report.problems.length +
    findings +
    report.members.differing +
    (report.hash.matches === false ? 1 : 0) +
    (report.publication?.status === 'failed' ? 1 : 0) +
    (report.records ? report.records.counts.missing + report.records.counts.changed : 0);
  if (faults > 0) return { result: 'differences', exitCode: 1 };
  const unchecked =
    (report.records?.counts.unreachable ?? 0) +
    (report.publication?.status === 'unchecked' || report.publication?.status === 'unpublished' ? 1 : 0);
  return unchecked > 0 ? { result: 'incomplete', exitCode: 3 } : { result: 'consistent', exitCode: 0 };
}

const n = (value: number) => value.toLocaleString('en');

/** The report for people: one line per check, then the details of what differs. */
export function renderReport(r: Report): string {
  const out: string[] = [];
  // A label as long as the column (`not traceable`) keeps a space before its text, as the README shows.
  const put = (label: string, text: string) => out.push(`${label.padEnd(12)} ${text}`);
  put(
    'ledger',
    r.week ? `${r.week}${r.edition ? ` edition ${r.edition}` : ''} (${r.state}) from ${r.origin}` : r.origin,
  );
  for (const problem of r.problems) put('problem', problem);
  if (r.ledger) put('read', `${n(r.ledger.bytes)} bytes, ${n(r.ledger.lines)} lines, ${r.ledger.sha256}`);
  if (r.hash.matches !== null)
    put('hash', r.hash.matches ? 'matches the index' : `DIFFERS: the index says ${r.hash.index}`);
  if (r.publication) put('published', publicationText(r.publication));
  if (r.publication && 'warnings' in r.publication) for (const w of r.publication.warnings) put('warning', w);
  for (const note of r.notes) put('note', note);
  const f = r.findings;
  put(
    'format',
    f.format.count === 0 ? 'every line parses, is canonical and in order' : `${n(f.format.count)} faults`,
  );
  put(
    'lines',
    f.lines.count === 0
      ? 'every line follows from the rules'
      : `${n(f.lines.count)} lines contradict the rules`,
  );
  put(
    'totals',
    f.totals.count === 0
      ? 'the end line sums the lines'
      : `${n(f.totals.count)} of the end line's figures differ`,
  );
  put('ranks', f.ranks.count === 0 ? 'as recomputed' : `${n(f.ranks.count)} members' ranks differ`);
  put(
    'members',
    r.members.differing === 0
      ? `${n(r.members.total)} recomputed, all agree`
      : `${n(r.members.differing)} of ${n(r.members.total)} differ from the recomputation`,
  );
  if (r.records) {
    const c = r.records.counts;
    const of = r.sampling
      ? `${n(r.records.sampled)} sampled of ${n(r.records.eligible)}`
      : `${n(r.records.sampled)}`;
    put(
      'records',
      `${of} checked: ${n(r.records.ok)} ok, ${n(c.missing)} missing, ${n(c.changed)} changed, ${n(c['deleted since'])} deleted since, ${n(c.unreachable)} unreachable`,
    );
    put('not traceable', `${n(r.records.notTraceable)} points counted without a record`);
  }
  if (r.sampling) {
    put(
      'confidence',
      `with ${(r.sampling.rate * 100).toFixed(2)} % sampled and ${r.records && r.records.counts.missing + r.records.counts.changed > 0 ? 'faults' : 'no fault'} found, at most ${n(r.sampling.bound)} of the ${n(r.sampling.eligible)} records (${share(r.sampling.bound, r.sampling.eligible)}) are missing or changed, at 95 % confidence`,
    );
  }
  for (const d of r.members.differences) {
    out.push(
      `  member @${d.handle} (${d.author}), line ${d.line}: ledger ${n(d.ledger)} Mana, recomputed ${n(d.recomputed)}`,
    );
    for (const reason of d.reasons) out.push(`    ${reason}`);
  }
  for (const kind of ['format', 'lines', 'totals', 'ranks'] as const) {
    for (const e of f[kind].examples)
      out.push(`  ${kind}: ${e.line === null ? '' : `line ${e.line}: `}${e.message}`);
    if (f[kind].count > f[kind].examples.length)
      out.push(`  ${kind}: … and ${n(f[kind].count - f[kind].examples.length)} more`);
  }
  for (const e of r.records?.examples ?? []) out.push(`  ${e.status}: line ${e.line}: ${e.uri}: ${e.detail}`);
  const verdict =
    r.result === 'consistent'
      ? 'CONSISTENT'
      : r.result === 'incomplete'
        ? 'INCOMPLETE (nothing differs, but not everything could be checked)'
        : 'DIFFERENCES FOUND';
  put('result', `${verdict} (exit ${r.exitCode})`);
  return `${out.join('\n')}\n`;
}

function publicationText(p: NonNullable<Report['publication']>): string {
  switch (p.status) {
    case 'verified':
      return `by @${p.handle ?? '?'} in ${p.uri}${p.signedAt ? ` (signed ${p.signedAt})` : ''}: signature, proof, CID and sha256 hold`;
    case 'failed':
      return `DIFFERS: ${p.uri}: ${p.detail}`;
    case 'unchecked':
      return `could not be checked: ${p.uri}: ${p.detail}`;
    default:
      return p.detail;
  }
}

function share(part: number, whole: number): string {
  if (whole === 0) return '0 %';
  const value = Math.min(1, part / whole) * 100;
  return `${value < 1 ? value.toFixed(2) : value.toFixed(1)} %`;
}
