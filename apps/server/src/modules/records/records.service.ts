import type { LineRecord, RecordsQuery, RecordsResponse, RecordVoidReason } from '@manaboard/contract';
import type { Db } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import type { NetworkPages, RecordKind } from '../../social/social-network';
import { findAccountByBrowser } from '../linking/accounts.repository';
import { findAuthor } from '../leaderboard/breakdown.repository';
import * as repo from './records.repository';

export type RecordsDeps = { db: Db; pages: NetworkPages };

type Data = RecordsResponse['data'];

/**
 * The records behind one breakdown line (issue 30), a page at a time, newest first: a post's likes, reposts,
 * replies and quotes (each counted, or void with why: deleted, late, or the whole line void: the post deleted or
 * over the daily limit) with its counts and the points among them that hold no record ("not traceable"); the
 * referrals (the referee named only to the member themself, as in the breakdown); the interactions with official
 * posts (the member's own record, pending with its due dates, credited or void). 404 for an author not on the board
 * (unknown or disqualified, as the breakdown) and for a post that is not theirs.
 */
export async function lineRecords(
  deps: RecordsDeps,
  input: { authorId: string; query: RecordsQuery; viewerBrowserHash: string | null },
): Promise<RecordsResponse> {
  const { query } = input;
  const offset = (query.page - 1) * query.limit;
  const base: Omit<Data, 'records' | 'hasMore'> = {
    authorId: input.authorId,
    line: query.line,
    post: query.post ?? null,
    page: query.page,
    limit: query.limit,
    counts: null,
    notTraceable: null,
  };
  if (query.line === 'post') {
    return done(
      await postPage(deps, input.authorId, query.post ?? '', offset, query.limit, base),
      query.limit,
    );
  }
  const author = await findAuthor(deps.db, input.authorId);
  if (!author || author.disqualified) throw new NotFoundError('No such author on the leaderboard');
  let page: { records: LineRecord[]; base: typeof base };
  if (query.line === 'interaction') {
    const rows = await repo.interactionRecords(deps.db, author.id, query.post, offset, query.limit + 1);
    page = { base, records: rows.map((r) => interactionRecord(deps.pages, author, r)) };
  } else {
    const viewer = input.viewerBrowserHash
      ? await findAccountByBrowser(deps.db, input.viewerBrowserHash)
      : undefined;
    const own = viewer?.network_user_id === author.id;
    const rows = await repo.referralRecords(deps.db, author.id, offset, query.limit + 1);
    page = { base, records: rows.map((r) => referralRecord(deps.pages, r, own)) };
  }
  return done(page, query.limit);
}

/** The page's answer: `limit` records, and whether the extra one read says more follow. */
function done(page: { records: LineRecord[]; base: Omit<Data, 'records' | 'hasMore'> }, limit: number) {
  return {
    success: true as const,
    data: { ...page.base, hasMore: page.records.length > limit, records: page.records.slice(0, limit) },
  };
}

async function postPage(
  deps: RecordsDeps,
  authorId: string,
  postId: string,
  offset: number,
  limit: number,
  base: Omit<Data, 'records' | 'hasMore'>,
) {
  // One read for both: a post of this author, on the board (an unknown or disqualified author has none there).
  const post = await repo.findPostOf(deps.db, authorId, postId);
  if (!post || post.disqualified) throw new NotFoundError('No such post of this author on the leaderboard');
  const rows = await repo.postRecords(deps.db, post.id, offset, limit + 1);
  // The whole line counts nothing when its post is gone or over the daily limit: so does each of its records.
  const lineVoid: RecordVoidReason | null =
    post.status === 'deleted'
      ? 'post-deleted'
      : post.status === 'protected'
        ? 'post-protected'
        : post.over_limit
          ? 'over-daily-limit'
          : null;
  const records = rows.map((r): LineRecord => {
    const reason = r.state === 'void' ? voidReasonOf(r.void_reason) : lineVoid;
    const account = { id: r.author_id, handle: r.handle };
    const own = deps.pages.record({ kind: r.kind, id: r.id, authorId: r.author_id, authorHandle: r.handle });
    return {
      kind: r.kind,
      uri: r.id,
      cid: r.cid,
      author: { ...account, url: deps.pages.profile(account) },
      at: r.created_at.toISOString(),
      state: reason ? 'void' : 'counted',
      reason,
      checkAfter: null,
      dueAt: null,
      source: r.source,
      url: own ?? deps.pages.profile(account),
      urlIsAuthor: own === null,
    };
  });
  return {
    records,
    base: {
      ...base,
      counts: { likes: post.likes, replies: post.replies, reposts: post.reposts, quotes: post.quotes },
      notTraceable: {
        likes: post.untraced_likes,
        replies: post.untraced_replies,
        reposts: post.untraced_reposts,
        quotes: post.untraced_quotes,
      },
    },
  };
}

/** A stored record's void reason as the contract names it (one the engine does not know reads as deleted). */
function voidReasonOf(reason: string | null): RecordVoidReason {
  return reason === 'late' || reason === 'duplicate' || reason === 'post-deleted' ? reason : 'deleted';
}

/** Why an interaction was voided at its re-check, from the settle job's note. */
function interactionVoidReason(note: string | null): RecordVoidReason {
  if (note === 'the official post is gone') return 'official-post-deleted';
  if (note === 'not confirmed within the settle window') return 'unconfirmed';
  return 'undone';
}

function interactionRecord(
  pages: NetworkPages,
  member: { id: string; handle: string },
  r: Awaited<ReturnType<typeof repo.interactionRecords>>[number],
): LineRecord {
  const account = { id: member.id, handle: member.handle };
  const kind: RecordKind = r.kind;
  const own = r.record_id
    ? pages.record({ kind, id: r.record_id, authorId: member.id, authorHandle: member.handle })
    : null;
  return {
    kind,
    uri: r.record_id,
    cid: r.record_cid,
    author: { ...account, url: pages.profile(account) },
    at: r.detected_at.toISOString(),
    state: r.status === 'credited' ? 'counted' : r.status,
    reason: r.status === 'void' ? interactionVoidReason(r.note) : null,
    checkAfter: r.status === 'pending' ? r.check_after.toISOString() : null,
    dueAt: r.status === 'pending' ? r.settle_by.toISOString() : null,
    source: r.record_id ? 'stream' : null,
    url: own ?? pages.profile(account),
    urlIsAuthor: own === null,
  };
}

function referralRecord(
  pages: NetworkPages,
  r: Awaited<ReturnType<typeof repo.referralRecords>>[number],
  own: boolean,
): LineRecord {
  // The referee is named only to the member themself, as in the breakdown; others see when, and whether it counts.
  const account = own ? { id: r.network_user_id, handle: r.handle } : { id: null, handle: null };
  const url = own ? pages.profile({ id: r.network_user_id, handle: r.handle }) : null;
  return {
    kind: 'referral',
    uri: null,
    cid: null,
    author: { ...account, url },
    at: r.created_at.toISOString(),
    state: r.counts ? 'counted' : 'void',
    reason: r.counts
      ? null
      : r.status === 'void' || r.disqualified
        ? 'referee-disqualified'
        : 'referee-unlinked',
    checkAfter: null,
    dueAt: null,
    source: null,
    url,
    urlIsAuthor: url !== null,
  };
}
