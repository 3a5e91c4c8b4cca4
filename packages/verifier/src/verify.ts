import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { downloadLedger, ledgerLines } from './ledger-download';
import { LedgerCheck } from './ledger-check';
import { ChoiceError, chooseLedger, readIndex } from './ledger-index';
import { Findings, type FindingKind } from './findings';
import { Http, type HttpOptions } from './http';
import { Handles } from './handle';
import { Identities } from './identity';
import { keptProofs } from './kept-proofs';
import { Progress } from './progress';
import { DEFAULT_REPO_THRESHOLD } from './author-repositories';
import { checkPublication } from './published-check';
import { checkRecords } from './record-run';
import { judge, type Report } from './report';
import { faultBound, sampler } from './sampling';

export type VerifyOptions = {
  /** The programme's origin, e.g. `https://manaboard.example.org`. */
  origin: string;
  week?: string;
  edition?: number;
  /** Check only this member's records (a handle, with or without @, or a DID); Mana is recomputed for all. */
  member?: string;
  /** Share of records to check, 0 < sample ≤ 1 (default 1: all). */
  sample?: number;
  concurrency?: number;
  /**
   * Records expected of one author (its records × the sample rate) from which the author's whole repository is
   * fetched once and all of them checked against it (default 8); 0: always, Infinity: never (`--proofs record`).
   */
  repoThreshold?: number;
  plcUrl?: string;
  /**
   * A server whose com.atproto.identity.resolveHandle resolves the official handle (a PDS or AppView), instead of
   * DNS and https://<handle>/.well-known/atproto-did: for a network whose handles are in no public DNS (tests).
   */
  handleResolver?: string;
  /** The domain of a bare official name in the rules (`manahq` → `manahq.bsky.social`); default bsky.social. */
  officialDomain?: string;
  /** Where progress goes (stderr in the command); null for none. */
  progress?: NodeJS.WriteStream | null;
  http?: Partial<HttpOptions>;
  /** The ledger's size cap (default 4 GiB). */
  maxLedgerBytes?: number;
};

export class UsageError extends Error {}

/**
 * Verifies one week of a programme from its public URLs: the index, the ledger (streamed from the origin, hashed
 * and recomputed as it arrives; then read from a temporary file for its records, twice unless `repoThreshold` is
 * Infinity: first to count each author's), the published hash, and the records on their authors' servers. Never
 * throws for what the origin or the network answered: each problem is a line of the report. Throws `UsageError`
 * for a week or edition the index does not list.
 */
export async function verifyLedger(options: VerifyOptions): Promise<Report> {
  const origin = new URL(options.origin).origin;
  const http = new Http(options.http);
  const identities = new Identities(http, options.plcUrl ?? 'https://plc.directory');
  const handles = new Handles(http, options.handleResolver ?? null);
  const findings = new Findings();
  const base: Omit<Report, 'result' | 'exitCode'> = {
    origin,
    week: null,
    edition: null,
    state: null,
    problems: [],
    notes: [],
    ledger: null,
    hash: { index: null, matches: null },
    publication: null,
    findings: summarise(findings),
    members: { total: 0, differing: 0, differences: [] },
    records: null,
    sampling: null,
  };
  const done = () => ({
    ...base,
    findings: summarise(findings),
    ...judge({ ...base, findings: summarise(findings) }),
  });

  let choice;
  try {
    choice = chooseLedger(await readIndex(http, origin), origin, options.week, options.edition);
  } catch (error) {
    if (error instanceof ChoiceError && error.usage) throw new UsageError(error.message);
    base.problems.push((error as Error).message);
    return done();
  }
  Object.assign(base, { week: choice.week, edition: choice.edition?.edition ?? null, state: choice.state });

  const dir = await mkdtemp(path.join(tmpdir(), 'manaboard-verify-'));
  try {
    const file = path.join(dir, 'ledger.ndjson');
    const check = new LedgerCheck(findings);
    let download;
    try {
      download = await downloadLedger(http, choice.url, file, {
        maxBytes: options.maxLedgerBytes ?? 4 * 1024 ** 3,
        idleMs: http.options.timeoutMs * 4,
        onLine: (line) => check.line(line),
      });
    } catch (error) {
      base.problems.push(`the ledger could not be read: ${(error as Error).message}`);
      return done();
    }
    if (download.problem) base.problems.push(download.problem);
    const summary = check.finish();
    base.ledger = { url: choice.url, bytes: download.bytes, lines: summary.lines, sha256: download.sha256 };
    base.members = {
      total: summary.members,
      differing: summary.differingMembers,
      differences: summary.differences,
    };
    if (choice.edition) {
      base.hash = { index: choice.edition.sha256, matches: choice.edition.sha256 === download.sha256 };
    } else {
      base.notes.push(
        'an open week: its hash is only known once it closes, so no hash or publication to compare',
      );
    }
    if (choice.edition && choice.state === 'closed') {
      const published = choice.edition.published;
      base.publication = published
        ? await checkPublication({ http, identities, handles }, published, {
            sha256: download.sha256,
            url: new URL(choice.edition.url, origin).href,
            officialHandles: summary.header?.rules.at(-1)?.rules.officialHandles ?? [],
            officialDomain: options.officialDomain ?? 'bsky.social',
          })
        : { status: 'unpublished', detail: 'not published yet: the index names no post for this edition' };
    }

    if (summary.header?.network === 'x') {
      base.notes.push(
        "X's records carry no proof and cannot be fetched by outsiders: the records were not checked",
      );
      return done();
    }
    if (!summary.header) return done();
    const wanted = options.member?.replace(/^@/, '').toLowerCase();
    const member = wanted
      ? (author: string, handle: string) => author === wanted || handle.toLowerCase() === wanted
      : null;
    const eligible = member
      ? [...summary.perMember]
          .filter(([a, m]) => member(a, m.handle))
          .reduce((s, [, m]) => s + m.addressed, 0)
      : summary.addressed;
    if (member && ![...summary.perMember].some(([a, m]) => member(a, m.handle))) {
      throw new UsageError(`the ledger of ${choice.week} has no member ${options.member}`);
    }
    const rate = options.sample ?? 1;
    const tally = await checkRecords(() => ledgerLines(file), {
      http,
      identities,
      keptProof: keptProofs(http, origin, choice.week),
      concurrency: options.concurrency ?? 8,
      member,
      draw: sampler(rate),
      rate,
      repoThreshold: options.repoThreshold ?? DEFAULT_REPO_THRESHOLD,
      progress: new Progress(options.progress ?? null, Math.round(eligible * rate), rate < 1),
    });
    base.records = { ...tally, named: summary.addressed, notTraceable: summary.notTraceable };
    if (rate < 1)
      base.sampling = { rate, bound: Math.min(faultBound(rate), tally.eligible), eligible: tally.eligible };
    return done();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function summarise(findings: Findings): Report['findings'] {
  const kinds: FindingKind[] = ['format', 'lines', 'totals', 'ranks'];
  return Object.fromEntries(
    kinds.map((k) => [k, { count: findings.count(k), examples: [...findings.list(k)] }]),
  ) as Report['findings'];
}
