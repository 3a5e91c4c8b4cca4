import { LEDGER_FORMAT, type LedgerEnd } from '@manaboard/contract/ledger';
import type { Db } from '../../db/schema';
import {
  compareCodeUnits,
  compareInteractions,
  compareMembers,
  comparePosts,
  compareReferrals,
  line,
  recordLine,
} from './ledger-encode';
import * as read from './ledger-read.repository';
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
/** Text handed on at a time. */
const FLUSH_AT = 64 * 1024;

type Counts = read.RecordCounts;
const noRecords: Counts = { like: 0, quote: 0, reply: 0, repost: 0 };
const total = (c: Counts) => c.like + c.quote + c.reply + c.repost;

function groupBy<T extends { author: string }>(rows: readonly T[]): Map<string, T[]> {
  const by = new Map<string, T[]>();
  for (const row of rows) {
    const list = by.get(row.author);
    if (list) list.push(row);
    else by.set(row.author, [row]);
  }
  return by;
}

/** Checks the records of a post come in the format's order and as many of each kind as were counted. */
class RecordCheck {
  private last: { kind: string; id: string } | null = null;
  private readonly seen: Counts = { ...noRecords };
  constructor(
    private readonly post: string,
    private readonly expected: Counts,
  ) {}
  add(r: { kind: keyof Counts; id: string }): void {
    const last = this.last;
    if (last && (compareCodeUnits(last.kind, r.kind) || compareCodeUnits(last.id, r.id)) >= 0)
      throw new Error(`records of ${this.post} are not in code-unit order at ${r.id}`);
    this.last = { kind: r.kind, id: r.id };
    this.seen[r.kind]++;
  }
  done(): void {
    for (const kind of ['like', 'quote', 'reply', 'repost'] as const)
      if (this.seen[kind] !== this.expected[kind])
        throw new LedgerMovedError(`the ${kind} records of ${this.post} changed while the ledger was read`);
  }
}

/**
 * A week's ledger (docs/ledger-format.md) as text, a piece at a time: header, each member in rank order with
 * their post lines (each followed by its records), referral and interaction lines, then the end line. Nothing of
 * the size of the week is held: members are read 200 at a time, records a page at a time by keyset, and the text
 * is handed on in pieces of about 64 KB, each only when the consumer asks for the next (backpressure). Read it in
 * a snapshot (a repeatable-read transaction) where the database has one; without, a member whose lines do not add
 * up to the sum read first ends it with LedgerMovedError. `onEnd` is told the end line.
 */
export async function* ledgerText(
  db: Db,
  plan: LedgerPlan,
  onEnd?: (end: LedgerEnd) => void,
): AsyncGenerator<string, void, undefined> {
  const members = (await read.weekMembers(db, plan.week, plan.activeVersion)).sort(compareMembers);
  const named = new Set(members.flatMap((m) => m.versions));
  const rules = (await read.rulesVersions(db))
    .filter((v) => named.has(v.version))
    .map((v) => ledgerRulesEntry(v.version, v.rules));
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
  const pageSize = plan.recordPage ?? RECORD_PAGE;

  for (let start = 0; start < members.length; start += MEMBER_BATCH) {
    const batch = members.slice(start, start + MEMBER_BATCH);
    const ids = batch.map((m) => m.author);
    const posts = await read.weekPosts(db, ids, plan.week, plan.activeVersion);
    const postsOf = groupBy(posts);
    const referralsOf = groupBy(await read.weekReferrals(db, ids, plan.week));
    const interactionsOf = groupBy(await read.weekInteractions(db, ids, plan.week));
    const counts = await read.recordCounts(
      db,
      posts.map((p) => p.post),
    );

    for (const [i, member] of batch.entries()) {
      const own = (postsOf.get(member.author) ?? []).sort(comparePosts);
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

      let k = 0;
      while (k < own.length) {
        // Small posts share one read of their records; a large one is read alone, a page at a time.
        const group: read.PostRow[] = [];
        let size = 0;
        for (; k < own.length; k++) {
          const n = total(counts.get((own[k] as read.PostRow).post) ?? noRecords);
          if (group.length > 0 && size + n > pageSize) break;
          group.push(own[k] as read.PostRow);
          size += n;
          if (n > pageSize) {
            k++;
            break;
          }
        }
        const large = size > pageSize;
        const rows = large
          ? []
          : await read.recordsOf(
              db,
              group.filter((p) => counts.has(p.post)).map((p) => p.post),
            );
        const recordsOf = new Map<string, typeof rows>();
        for (const r of rows) {
          const list = recordsOf.get(r.subject);
          if (list) list.push(r);
          else recordsOf.set(r.subject, [r]);
        }
        for (const p of group) {
          const c = counts.get(p.post) ?? noRecords;
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
          const check = new RecordCheck(p.post, c);
          if (large) {
            let after: { kind: keyof Counts; id: string } | null = null;
            for (;;) {
              const page = await read.recordsPage(db, p.post, after, pageSize);
              for (const r of page) {
                check.add(r);
                out += recordLine(p.post, r);
                if (out.length >= FLUSH_AT) {
                  yield out;
                  out = '';
                }
              }
              end.records += page.length;
              const last = page.at(-1);
              if (!last || page.length < pageSize) break;
              after = { kind: last.kind, id: last.id };
            }
          } else {
            for (const r of recordsOf.get(p.post) ?? []) {
              check.add(r);
              out += recordLine(p.post, r);
              end.records++;
            }
          }
          check.done();
          if (out.length >= FLUSH_AT) {
            yield out;
            out = '';
          }
        }
      }
      for (const r of referrals) {
        const { at, author, mana, referee, rulesVersion } = r;
        out += line({ at, author, mana, referee, rulesVersion, type: 'referral' });
      }
      for (const x of interactions) {
        const { at, author, cid, kind, mana, post, record, rulesVersion } = x;
        out += line({ at, author, cid, kind, mana, post, record, rulesVersion, type: 'interaction' });
      }
      if (out.length >= FLUSH_AT) {
        yield out;
        out = '';
      }
    }
  }
  out += line(end);
  onEnd?.(end);
  yield out;
}
