import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { CallBudget, PostRecord, RecordKind, SocialNetwork } from '../../social/social-network';
import * as repo from './trace.repository';

/** Posts looked at per run at most, and network calls spent per run at most (the rest wait for the next run). */
export const TRACE_POSTS_PER_RUN = 200;
export const TRACE_CALLS_PER_RUN = 500;

const KINDS: readonly RecordKind[] = ['like', 'repost', 'reply', 'quote'];

export type TraceResult = {
  posts: number;
  found: number;
  calls: number;
  /** Posts whose lists could not all be read in full this run (their points stay untraced for now). */
  incomplete: number;
  rateLimited: number;
};

/**
 * No count without its records (issue 30): for posts whose counts hold points without a record (a reconcile
 * raised them from the AppView: the stream missed those records), reads the records behind them from the
 * network's lists (`SocialNetwork.recordsOf`) and stores them like streamed records (source 'appview'), each in
 * place of one untraced point; a record the stream later delivers is not counted again (records are kept once by
 * id), nor one it delivered first. Whatever a list cannot give in full (the run's budget spent, a rate limit, an
 * account whose record cannot be found) stays untraced: "not traceable" on the records page and in the ledger.
 */
export async function tracePosts(
  db: Kysely<Database>,
  network: Pick<SocialNetwork, 'recordsOf'>,
  now: Date,
  limits: { posts?: number; calls?: number } = {},
): Promise<TraceResult> {
  const result: TraceResult = { posts: 0, found: 0, calls: 0, incomplete: 0, rateLimited: 0 };
  const recordsOf = network.recordsOf?.bind(network);
  if (!recordsOf) return result;
  const budget: CallBudget = { left: limits.calls ?? TRACE_CALLS_PER_RUN };
  for (const post of await repo.untracedPosts(db, limits.posts ?? TRACE_POSTS_PER_RUN)) {
    if (budget.left <= 0) break;
    const known = await repo.countedRecords(db, post.id);
    const found: Array<PostRecord & { kind: RecordKind }> = [];
    let complete = true;
    let stop = false;
    for (const kind of KINDS) {
      const want = post.untraced[kind];
      if (want <= 0) continue;
      const ofKind = known.filter((r) => r.kind === kind);
      const read = await recordsOf(post, kind, {
        knownAuthors: new Set(kind === 'like' || kind === 'repost' ? ofKind.map((r) => r.author_id) : []),
        knownIds: new Set(ofKind.map((r) => r.id)),
        want,
        budget,
      });
      result.calls += read.calls;
      found.push(...read.records.map((r) => ({ ...r, kind })));
      if (!read.complete) complete = false;
      if (read.stopped === 'rate-limited') result.rateLimited++;
      // Out of calls or asked to slow down: store what was found, and let the next run go on.
      if (read.stopped === 'budget' || read.stopped === 'rate-limited') {
        stop = true;
        break;
      }
    }
    result.posts++;
    if (!complete) result.incomplete++;
    // An error is not retried at once (the post is read again once its counts move); a stop is.
    const settled = complete || !stop;
    result.found += await db.transaction().execute((trx) => repo.storeTraced(trx, post, found, settled, now));
    if (stop) break;
  }
  return result;
}
