import { ledgerLineSchema } from '@manaboard/contract/ledger';
import { parseRecordUri } from './at-uri';
import { AuthorRepositories } from './author-repositories';
import type { RawLine } from './line-splitter';
import type { Progress } from './progress';
import { checkRecord, type KeptProof, type NamedRecord, type RecordOutcome } from './record-check';
import type { Http } from './http';
import type { Identities } from './identity';

export type RecordStatus = Exclude<RecordOutcome['status'], 'ok'>;

export type RecordTally = {
  /** Records the run could have checked (all addressed records, or the member's). */
  eligible: number;
  /** Records drawn for checking (all of them without --sample). */
  sampled: number;
  ok: number;
  counts: Record<RecordStatus, number>;
  /** The first few of each status, with the ledger line that names the record. */
  examples: Array<{ status: RecordStatus; line: number; uri: string; detail: string }>;
  /**
   * How the records were proven: `records` of them against their author's whole repository (`repositories`
   * fetched, one per author; `fellBack` authors' could not be used: over the cap, unreachable, or not holding),
   * the others each with its own proof.
   */
  proofs: { records: number; repositories: number; fellBack: number };
};

type Member = ((author: string, handle: string) => boolean) | null;

/**
 * The records' pass: reads the ledger's lines again, and for each record it names (record lines, interaction
 * lines with a record) that belongs to the chosen member and is drawn by the sample, checks the record on its
 * author's server, `concurrency` at a time. Lines that failed to parse were reported by the first pass and are
 * skipped here. Unless `repoThreshold` is Infinity, the lines are read once more before, to count each author's
 * records: an author expected to have `repoThreshold` or more checked has its whole repository fetched once
 * (author-repositories.ts).
 */
export async function checkRecords(
  open: () => AsyncIterable<RawLine>,
  options: {
    http: Http;
    identities: Identities;
    keptProof: KeptProof | null;
    concurrency: number;
    member: Member;
    draw: () => boolean;
    /** The sample's rate (what `draw` draws with). */
    rate: number;
    /** Records expected of an author (count × rate) from which its repository is fetched; 0 always, Infinity never. */
    repoThreshold: number;
    progress: Progress;
  },
): Promise<RecordTally> {
  const tally: RecordTally = {
    eligible: 0,
    sampled: 0,
    ok: 0,
    counts: { missing: 0, changed: 0, 'deleted since': 0, unreachable: 0 },
    examples: [],
    proofs: { records: 0, repositories: 0, fellBack: 0 },
  };
  const repositories =
    options.repoThreshold === Infinity
      ? null
      : new AuthorRepositories(options.http, await countAuthors(open(), options.member), {
          threshold: options.repoThreshold,
          rate: options.rate,
        });
  const running = new Set<Promise<void>>();
  for await (const named of namedRecords(open(), options.member)) {
    tally.eligible += 1;
    const drawn = options.draw();
    const did = parseRecordUri(named.uri)?.did;
    const lease = did === undefined ? null : (repositories?.next(did, drawn) ?? null);
    if (!drawn) continue;
    tally.sampled += 1;
    while (running.size >= options.concurrency) await Promise.race(running);
    const task = checkRecord(named, options, lease)
      .catch((error: unknown): RecordOutcome => ({
        status: 'unreachable',
        detail: `check failed: ${String(error)}`,
      }))
      .then((outcome) => {
        lease?.release();
        options.progress.tick();
        if (outcome.status === 'ok') {
          tally.ok += 1;
          return;
        }
        tally.counts[outcome.status] += 1;
        if (tally.examples.filter((e) => e.status === outcome.status).length < 50) {
          tally.examples.push({
            status: outcome.status,
            line: named.line,
            uri: named.uri,
            detail: outcome.detail,
          });
        }
      })
      .finally(() => running.delete(task));
    running.add(task);
  }
  await Promise.all(running);
  options.progress.finish();
  tally.examples.sort((a, b) => a.line - b.line);
  if (repositories) tally.proofs = { ...repositories.stats };
  return tally;
}

/** Each author's (the repository's DID) eligible records: what the records' pass will come across. */
async function countAuthors(lines: AsyncIterable<RawLine>, member: Member): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const named of namedRecords(lines, member)) {
    const did = parseRecordUri(named.uri)?.did;
    if (did !== undefined) counts.set(did, (counts.get(did) ?? 0) + 1);
  }
  return counts;
}

/** The records the lines name, of the chosen member's blocks (the --member filter follows the member lines). */
async function* namedRecords(lines: AsyncIterable<RawLine>, member: Member): AsyncGenerator<NamedRecord> {
  let inMember = member === null;
  for await (const raw of lines) {
    if (!('text' in raw) || raw.text === undefined) continue;
    const named = namedRecord(raw.number, raw.text, (author, handle) => {
      inMember = member === null || member(author, handle);
    });
    if (named && inMember) yield named;
  }
}

/** The record a line names, if any; a member line is passed to `onMember` (the --member filter follows it). */
function namedRecord(
  line: number,
  text: string,
  onMember: (author: string, handle: string) => void,
): NamedRecord | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ledgerLineSchema.safeParse(json);
  if (!parsed.success) return null;
  const value = parsed.data;
  if (value.type === 'member') onMember(value.author, value.handle);
  if (value.type === 'record') {
    const { uri, cid, kind, post, author } = value;
    return { line, uri, cid, kind, post, author };
  }
  if (value.type === 'interaction' && value.record !== null) {
    return {
      line,
      uri: value.record,
      cid: value.cid,
      kind: value.kind,
      post: value.post,
      author: value.author,
    };
  }
  return null;
}
