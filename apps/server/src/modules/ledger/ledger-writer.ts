import { LEDGER_FORMAT, type LedgerEnd } from '@manaboard/contract/ledger';
import type { Db } from '../../db/schema';
import { heapBudget } from '../../lib/heap-budget';
import { compareInteractions, compareMembers, comparePosts, compareReferrals, line } from './ledger-encode';
import * as read from './ledger-read.repository';
import { noRecords, postsWithRecords, type Counts } from './ledger-records';
import { ledgerRulesEntry } from './ledger-rules';
import type { LedgerWeek } from './ledger-week';
import type { NetworkName } from '../../social/social-network';

/** What a ledger document is of: the week, the network, and whether it is a closed edition or the open week. */
export type LedgerPlan = {
  week: LedgerWeek;
  network: NetworkName;
  state: 'open' | 'closed';
  /** When the week closed (null while open). */
  closedAt: Date | null;
  edition: number;
  /** The rules version in force: a post not scored since migration 0019 reads as scored with it. */
  activeVersion: number;
  /** Records read per query (RECORD_PAGE; tests make it small to take the paged path). */
  recordPage?: number;
};

/**
 * The data moved while the ledger was read without a snapshot (PGlite): a member's lines no longer add up to the
 * sum read first, or a post's records changed. The document would not be one board, so it is dropped; the
 * close job tries again on its next run, a reader asks again.
 */
export class LedgerMovedError extends Error {
  override readonly name = 'LedgerMovedError';
}

/** Members read together (their posts, referrals, interactions and record counts: one query each). */
const MEMBER_BATCH = 200;
/** Records read per query: small posts share one, a large post is read a page at a time. */
export const RECORD_PAGE = 5_000;
/**
 * Garbage a build may leave before it has V8 collect it (lib/heap-budget.ts): the server's growth while it builds
 * a week of 1 M records is then about twice this (docs/benchmarks.md, "The weekly ledger"), where V8's own pace let
 * the first build after a start grow it by ~150 MB. Each collection costs the thread ~20-40 ms.
 */
const GARBAGE_BUDGET = 16 * 1024 * 1024;
/** Text handed on at a time. */
const FLUSH_AT = 256 * 1024;

function groupBy<T extends { author: string }>(rows: readonly T[]): Map<string, T[]> {
  const by = new Map<string, T[]>();
  for (const row of rows) {
    const list = by.get(row.author);
    if (list) list.push(row);
    else by.set(row.author, [row]);
  }
  return by;
}

/** The record lines of a post must be as many of each kind as were counted before they were read. */
function checkCounts(post: string, expected: Counts, seen: Counts): void {
  for (const kind of ['like', 'quote', 'reply', 'repost'] as const)
    if (seen[kind] !== expected[kind])
      throw new LedgerMovedError(`the ${kind} records of ${post} changed while the ledger was read`);
}

/** The rules in force, as the open week's post lines are scored with them (ledger-read's postLines). */
function scoringRules(versions: ReadonlyArray<{ version: number; rules: unknown }>, active: number) {
  const stored = versions.find((v) => v.version === active);
  if (!stored) throw new Error(`the rules version in force (${active}) is not stored`);
  const { weights, linkedMultiplier, dailyLimit } = ledgerRulesEntry(active, stored.rules).rules;
  return { weights, linkedMultiplier, dailyLimit };
}

/**
 * A week's ledger (docs/ledger-format.md) as text, a piece at a time: header, each member in rank order with
 * their post lines (each followed by its records), referral and interaction lines, then the end line. Nothing of
 * the size of the week is held: members are read 200 at a time, records a page at a time by keyset, and the text
 * is handed on as bytes, in pieces of about 256 KB (a post's record lines as the database's bytes, see
 * RecordText), each only when the consumer asks for the next (backpressure). Read it in a snapshot
 * (repeatable-read transactions on one snapshot, ledger-snapshot.ts) where the database has one; without, a
 * member whose lines do not add up to the sum read first ends it with LedgerMovedError. `onEnd` is told the end
 * line. The open week's post lines are scored as the ledger is built, from the counts it lists (ledger-read's
 * postLines): the stored Mana lags the counts until the next totals run.
 */
export async function* ledgerText(
  from: Db | readonly [Db, ...Db[]],
  plan: LedgerPlan,
  onEnd?: (end: LedgerEnd) => void,
): AsyncGenerator<Buffer, void, undefined> {
  // Several readers (ledger-snapshot.ts: connections on one snapshot) share the records' reads; the rest is read
  // on the first.
  const readers: readonly [Db, ...Db[]] = Array.isArray(from)
    ? (from as readonly [Db, ...Db[]])
    : [from as Db];
  const db = readers[0];
  const versions = await read.rulesVersions(db);
  const now = plan.state === 'open' ? scoringRules(versions, plan.activeVersion) : null;
  const members = (await read.weekMembers(db, plan.week, plan.activeVersion, now)).sort(compareMembers);
  const named = new Set(members.flatMap((m) => m.versions));
  const rules = versions.filter((v) => named.has(v.version)).map((v) => ledgerRulesEntry(v.version, v.rules));
  if (rules.length !== named.size) throw new Error(`a line names a rules version that is not stored`);
  let out = line({
    closedAt: plan.closedAt?.toISOString() ?? null,
    edition: plan.edition,
    format: LEDGER_FORMAT,
    from: plan.week.from.toISOString(),
    network: plan.network,
    rules,
    state: plan.state,
    to: plan.week.to.toISOString(),
    type: 'header',
    week: plan.week.week,
  });
  const end: LedgerEnd = { mana: 0, members: 0, notTraceable: 0, posts: 0, records: 0, type: 'end' };
  // What is not handed on yet: the records' bytes as they came, and the lines written since the last of them.
  let parts: Buffer[] = [];
  let size = 0;
  const garbage = heapBudget(GARBAGE_BUDGET);
  /** The lines written since the last bytes, as bytes. */
  const settle = () => {
    if (out === '') return;
    const lines = Buffer.from(out, 'utf8');
    parts.push(lines);
    size += lines.length;
    out = '';
  };
  /** Bytes after the lines written so far, in order. */
  const keep = (bytes: Buffer) => {
    settle();
    parts.push(bytes);
    size += bytes.length;
  };
  const flush = (): Buffer => {
    settle();
    const piece = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    garbage.check();
    return piece;
  };
  const pageSize = plan.recordPage ?? RECORD_PAGE;

  for (let start = 0; start < members.length; start += MEMBER_BATCH) {
    const batch = members.slice(start, start + MEMBER_BATCH);
    const ids = batch.map((m) => m.author);
    const postsOf = groupBy(await read.weekPosts(db, ids, plan.week, plan.activeVersion, now));
    const referralsOf = groupBy(await read.weekReferrals(db, ids, plan.week));
    const interactionsOf = groupBy(await read.weekInteractions(db, ids, plan.week));
    const ownPosts = batch.map((m) => (postsOf.get(m.author) ?? []).sort(comparePosts));
    // The batch's posts in the document's order: their records are read a page of records at a time.
    const records = postsWithRecords(readers, ownPosts.flat(), pageSize);

    for (const [i, member] of batch.entries()) {
      const own = ownPosts[i] ?? [];
      const referrals = (referralsOf.get(member.author) ?? []).sort(compareReferrals);
      const interactions = (interactionsOf.get(member.author) ?? []).sort(compareInteractions);
      const sum = [...own, ...referrals, ...interactions].reduce((s, l) => s + l.mana, 0);
      if (sum !== member.mana)
        throw new LedgerMovedError(`the lines of ${member.author} changed while the ledger was read`);
      out += line({
        author: member.author,
        firstTrackedAt: member.firstTrackedAt,
        handle: member.handle,
        mana: member.mana,
        rank: start + i + 1,
        type: 'member',
      });
      end.members++;
      end.mana += member.mana;

      for (const expectedPost of own) {
        const next = await records.next();
        if (next.done || next.value.post !== expectedPost) throw new Error('records came out of order');
        const { post: p, counts: c } = next.value;
        const notTraceable = {
          likes: Math.max(0, p.likes - c.like),
          quotes: Math.max(0, p.quotes - c.quote),
          replies: Math.max(0, p.replies - c.reply),
          reposts: Math.max(0, p.reposts - c.repost),
        };
        out += line({
          author: p.author,
          counts: { likes: p.likes, quotes: p.quotes, replies: p.replies, reposts: p.reposts },
          createdAt: p.createdAt,
          mana: p.mana,
          multiplier: p.multiplier,
          notTraceable,
          overDailyLimit: p.overDailyLimit,
          post: p.post,
          rulesVersion: p.rulesVersion,
          status: p.status,
          type: 'post',
        });
        end.posts++;
        end.notTraceable +=
          notTraceable.likes + notTraceable.quotes + notTraceable.replies + notTraceable.reposts;
        const seen = { ...noRecords };
        for await (const piece of next.value.pieces()) {
          keep(piece.text);
          for (const kind of ['like', 'quote', 'reply', 'repost'] as const) seen[kind] += piece.counts[kind];
          end.records += piece.counts.like + piece.counts.quote + piece.counts.reply + piece.counts.repost;
          if (size + out.length >= FLUSH_AT) yield flush();
        }
        checkCounts(p.post, c, seen);
      }
      for (const r of referrals) {
        const { at, author, mana, referee, rulesVersion } = r;
        out += line({ at, author, mana, referee, rulesVersion, type: 'referral' });
      }
      for (const x of interactions) {
        const { at, author, cid, kind, mana, post, record, rulesVersion } = x;
        out += line({ at, author, cid, kind, mana, post, record, rulesVersion, type: 'interaction' });
      }
      if (size + out.length >= FLUSH_AT) yield flush();
    }
  }
  out += line(end);
  onEnd?.(end);
  yield flush();
}
