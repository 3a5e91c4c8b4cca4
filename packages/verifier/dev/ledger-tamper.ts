import { createHash } from 'node:crypto';
import {
  canonicalJson,
  type LedgerEnd,
  type LedgerHeader,
  type LedgerLine,
  type LedgerMember,
  type LedgerPost,
  type LedgerRecord,
} from '@manaboard/contract/ledger';

/**
 * What a cheating operator might serve instead of the honest ledger, one case at a time, so the verifier can be
 * shown catching each against a running programme (tamper-proxy.ts). Each rewrite keeps every line canonical and
 * in order, and fixes up what an operator would have to fix for the lines to still add up, so what catches it is
 * the check the case is about, not a careless sum.
 */
export const TAMPER_CASES = ['fake-like', 'weight', 'total', 'cid', 'hash'] as const;
export type TamperCase = (typeof TAMPER_CASES)[number];

export function isTamperCase(value: string): value is TamperCase {
  return (TAMPER_CASES as readonly string[]).includes(value);
}

/** The rewritten ledger, and one sentence saying what was changed (or why nothing was). */
export type Tampered = { text: string; changed: boolean; note: string };

/** A record key no account's clock has reached yet (TIDs are time-ordered), so no real like has it. */
export const FAKE_LIKE_RKEY = '3lzzzzzzzzzzz';

type Lines = LedgerLine[];

function parse(text: string): Lines {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerLine);
}

function encode(lines: Lines): string {
  return lines.map((line) => `${canonicalJson(line)}\n`).join('');
}

function rulesHash(rules: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(rules)).digest('hex')}`;
}

function only<T extends LedgerLine['type']>(lines: Lines, type: T): Extract<LedgerLine, { type: T }>[] {
  return lines.filter((line): line is Extract<LedgerLine, { type: T }> => line.type === type);
}

function headerOf(lines: Lines): LedgerHeader {
  const header = lines[0];
  if (header?.type !== 'header') throw new Error('the ledger does not start with its header line');
  return header;
}

function endOf(lines: Lines): LedgerEnd {
  const end = lines.at(-1);
  if (end?.type !== 'end') throw new Error('the ledger does not finish with its end line');
  return end;
}

function rulesEntry(lines: Lines, version: number) {
  const entry = headerOf(lines).rules.find((r) => r.version === version);
  if (!entry) throw new Error(`the header lists no rules version ${version}`);
  return entry;
}

/** The member whose block holds line `index` (the nearest member line above it). */
function memberAbove(lines: Lines, index: number): LedgerMember {
  for (let i = index; i >= 0; i--) {
    const line = lines[i]!;
    if (line.type === 'member') return line;
  }
  throw new Error(`line ${index + 1} is in no member's block`);
}

const unchanged = (text: string, note: string): Tampered => ({ text, changed: false, note });

/** The records that follow the post line at `at`, as the index one past them. */
function recordsEnd(lines: Lines, at: number): number {
  let end = at + 1;
  while (lines[end]?.type === 'record') end++;
  return end;
}

/**
 * The first live post under the daily limit (members in rank order, so usually rank 1's, whose rank cannot move)
 * and a member other than its author who has not liked it (the verifier counts one like per account and post).
 */
function postToFake(lines: Lines): { at: number; liker: LedgerMember } {
  const members = only(lines, 'member');
  for (let at = 0; at < lines.length; at++) {
    const post = lines[at]!;
    if (post.type !== 'post' || post.status !== 'live' || post.overDailyLimit) continue;
    const likers = new Set(
      (lines.slice(at + 1, recordsEnd(lines, at)) as LedgerRecord[])
        .filter((r) => r.kind === 'like')
        .map((r) => r.author),
    );
    const liker = members.find((m) => m.author !== post.author && !likers.has(m.author));
    if (liker) return { at, liker };
  }
  throw new Error('no live post under the daily limit that some other member has not liked');
}

/**
 * A like that does not exist, by a member's account, added to a live post under the daily limit (postToFake). The
 * post's likes count, its Mana, the member's Mana and the end line's Mana and record count are raised to match, as
 * an operator inventing a like would have to: only the record check can tell.
 */
function fakeLike(lines: Lines): string {
  const { at, liker } = postToFake(lines);
  const post = lines[at] as LedgerPost;
  const member = memberAbove(lines, at);
  const anyCid = only(lines, 'record').find((r) => r.cid !== null)?.cid;
  const fake: LedgerRecord = {
    author: liker.author,
    cid: anyCid ?? 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    createdAt: post.createdAt,
    kind: 'like',
    post: post.post,
    type: 'record',
    uri: `at://${liker.author}/app.bsky.feed.like/${FAKE_LIKE_RKEY}`,
  };
  const end = recordsEnd(lines, at);
  const records = [...(lines.slice(at + 1, end) as LedgerRecord[]), fake].sort(
    (a, b) => compare(a.kind, b.kind) || compare(a.uri, b.uri),
  );
  lines.splice(at + 1, end - at - 1, ...records);
  const gain = rulesEntry(lines, post.rulesVersion).rules.weights.like * post.multiplier;
  post.counts.likes += 1;
  post.mana += gain;
  member.mana += gain;
  endOf(lines).mana += gain;
  endOf(lines).records += 1;
  return `added a like by @${liker.handle} that does not exist, ${fake.uri}, on line ${at + 2 + records.indexOf(fake)} under @${member.handle}'s post ${post.post}; raised its likes to ${post.counts.likes} and the Mana (+${gain}) of the post, the member and the end line`;
}

/**
 * A like weight one higher in the rules of the first post with likes. The rules' hash is recomputed with it: a
 * cheating operator would (it is a public SHA-256), so what catches it is every member's Mana recomputed with
 * the weights the header states, against the lines scored with the real ones.
 */
function weight(lines: Lines): string {
  const post = only(lines, 'post').find((p) => p.counts.likes > 0);
  if (!post) throw new Error('no post with likes, so no weight that matters');
  const entry = rulesEntry(lines, post.rulesVersion);
  const before = entry.rules.weights.like;
  entry.rules.weights.like = before + 1;
  entry.hash = rulesHash(entry.rules);
  return `rules version ${entry.version}: like weight ${before} → ${before + 1} in the header, its hash recomputed to match; the lines left as scored`;
}

/** Seven Mana more for the first member, and on the end line, so the totals still sum. */
function total(lines: Lines): string {
  const member = only(lines, 'member')[0];
  if (!member) throw new Error('no member to alter');
  member.mana += 7;
  endOf(lines).mana += 7;
  return `@${member.handle}'s Mana ${member.mana - 7} → ${member.mana}, and the end line's +7`;
}

/** One record's CID swapped for another record's: the ledger then names a version of the record that never was. */
function cid(lines: Lines): string {
  const records = only(lines, 'record').filter((r) => r.cid !== null);
  const first = records[0];
  const other = records.find((r) => r.cid !== first?.cid);
  if (!first || !other) throw new Error('no two records with different CIDs to swap');
  const before = first.cid;
  first.cid = other.cid;
  return `record ${first.uri} on line ${lines.indexOf(first) + 1}: CID ${before} → ${first.cid} (another record's)`;
}

/**
 * A closed edition served with other bytes than those its hash was published for: the first member's handle
 * changed (no other check reads it, so only the hash can tell). An open week has no hash to differ from.
 */
function hash(lines: Lines): string | null {
  if (headerOf(lines).state !== 'closed') return null;
  const member = only(lines, 'member')[0];
  if (!member) throw new Error('no member line to change');
  const before = member.handle;
  member.handle = `${before}.evil`;
  return `@${before} renamed @${member.handle} on line ${lines.indexOf(member) + 1}: other bytes than those published`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const REWRITES: Record<TamperCase, (lines: Lines) => string | null> = {
  'fake-like': fakeLike,
  weight,
  total,
  cid,
  hash,
};

/** The ledger `text` rewritten for one case. Throws when the ledger has nothing the case can change. */
export function tamperLedger(text: string, tamperCase: TamperCase): Tampered {
  const lines = parse(text);
  const note = REWRITES[tamperCase](lines);
  if (note === null)
    return unchanged(
      text,
      'hash: an open week has no hash yet, so this case needs a closed week (served unchanged); ' +
        'packages/verifier/src/verify.network.test.ts checks it on a closed one',
    );
  return { text: encode(lines), changed: true, note: `${tamperCase}: ${note}` };
}
