import { sql } from 'kysely';
import { canonicalLine } from '@manaboard/contract/ledger';
import type { Db } from '../../db/schema';
import type { PostMetrics } from '../../social/social-network';
import type { Edge, RecordKind } from './stream-events';

/**
 * A tracked post as a batch needs it: when it was written, whether its counts still move, its counts, and why
 * not when they do not (`final`: past its refresh window for good; `gone`: deleted or protected).
 */
export type TrackedPost = {
  createdAt: Date;
  live: boolean;
  final: boolean;
  gone: boolean;
  metrics: PostMetrics;
};

/**
 * Why a stored record counts nothing (stream_records.void_reason): its author `deleted` it; it came `late`, once
 * its post's counts no longer moved (past the refresh window); it is a `duplicate`, a second like or repost of the
 * post by an account whose first still counts; it came while its post was deleted (`post-deleted`). The records page names these; what a post line's state voids as a whole (over the daily
 * limit, the post deleted since, a disqualified author) is read from the post and the author instead.
 */
export type VoidReason = 'deleted' | 'late' | 'duplicate' | 'post-deleted';

/**
 * Kinds the network counts once per account and post: its AppView keeps one like and one repost per (subject,
 * creator) (`@atproto/bsky`'s like_unique_subject and repost_unique_subject), so a second record by the same
 * account is not counted there, and must not be here (else a member's friends could farm Mana with copies). A
 * reply or quote is a post of its own, each counted.
 */
const ONE_PER_ACCOUNT: ReadonlySet<RecordKind> = new Set(['like', 'repost']);

/**
 * A record's line in the weekly ledger, stored with it (migration 0026): the ledger joins these instead of writing
 * each record's JSON again for every week it serves (ledger-records.repository.ts, which writes the same bytes for
 * a row stored without one).
 */
export function recordLine(record: {
  id: string;
  kind: RecordKind;
  subjectId: string;
  authorId: string;
  createdAt: Date;
  cid: string | null;
}): string {
  return canonicalLine({
    author: record.authorId,
    cid: record.cid,
    createdAt: record.createdAt.toISOString(),
    kind: record.kind,
    post: record.subjectId,
    type: 'record',
    uri: record.id,
  });
}

const accountKey = (kind: string, subject: string, author: string) => `${kind}|${subject}|${author}`;

/**
 * Which (kind, post, account) of these edges already has a counted like or repost stored, leaving out the records
 * being deleted in the same batch (an unlike and a like again within a second: the new one counts).
 */
async function alreadyCounted(
  db: Db,
  edges: readonly Edge[],
  deleting: ReadonlySet<string>,
): Promise<Set<string>> {
  const keys = new Set<string>();
  const once = edges.filter((e) => ONE_PER_ACCOUNT.has(e.kind));
  if (once.length === 0) return keys;
  const rows = await db
    .selectFrom('stream_records')
    .select(['id', 'kind', 'subject_id', 'author_id'])
    .where('subject_id', 'in', [...new Set(once.map((e) => e.subject.id))])
    .where('author_id', 'in', [...new Set(once.map((e) => e.authorId))])
    .where('kind', 'in', [...ONE_PER_ACCOUNT])
    .where('state', '=', 'counted')
    .execute();
  for (const r of rows) if (!deleting.has(r.id)) keys.add(accountKey(r.kind, r.subject_id, r.author_id));
  return keys;
}

const CHUNK = 1000;

type PostRow = {
  id: string;
  created_at: Date;
  status: string;
  final: boolean;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
};

function toTracked(r: PostRow): TrackedPost {
  return {
    createdAt: r.created_at,
    live: r.status === 'live' && !r.final,
    final: r.final,
    gone: r.status !== 'live',
    metrics: { likes: r.likes, replies: r.replies, reposts: r.reposts, quotes: r.quotes },
  };
}

const POST_COLUMNS = [
  'id',
  'created_at',
  'status',
  'final',
  'likes',
  'replies',
  'reposts',
  'quotes',
] as const;

/** Which of these posts the programme follows: tracked posts (with their counts) and official posts. */
export async function readSubjects(
  db: Db,
  ids: readonly string[],
): Promise<{ tracked: Map<string, TrackedPost>; official: Set<string> }> {
  const tracked = new Map<string, TrackedPost>();
  const official = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    for (const r of await db.selectFrom('posts').select(POST_COLUMNS).where('id', 'in', chunk).execute())
      tracked.set(r.id, toTracked(r));
    for (const r of await db.selectFrom('official_posts').select('id').where('id', 'in', chunk).execute())
      official.add(r.id);
  }
  return { tracked, official };
}

/** The tracked posts among these ids (one read per chunk, not one per post). */
export async function readTracked(db: Db, ids: readonly string[]): Promise<Map<string, TrackedPost>> {
  const tracked = new Map<string, TrackedPost>();
  for (let i = 0; i < ids.length; i += CHUNK)
    for (const r of await db
      .selectFrom('posts')
      .select(POST_COLUMNS)
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute())
      tracked.set(r.id, toTracked(r));
  return tracked;
}

/**
 * Keeps each record by id: returns the edges seen for the first time that may count (a replay returns none of
 * them). Each is stored with its CID and, when `voidReason` names one, as void from `now` (seen, evidence kept,
 * counting nothing). A like or repost by an account whose earlier one of the same post counts (stored before, or
 * earlier in `edges`) is stored void as a `duplicate` and not returned: it gives its post nothing. A record in
 * `deleting` (deleted in the same batch, which takes its point back after this) holds no place.
 */
export async function countOnce(
  db: Db,
  edges: readonly Edge[],
  voidReason: (edge: Edge) => VoidReason | null = () => null,
  now: Date = new Date(),
  deleting: ReadonlySet<string> = new Set(),
): Promise<Edge[]> {
  const counted: Edge[] = [];
  for (let i = 0; i < edges.length; i += 500) {
    const chunk = edges.slice(i, i + 500);
    const taken = await alreadyCounted(db, chunk, deleting);
    const reasons = new Map<Edge, VoidReason | null>();
    for (const e of chunk) {
      const key = accountKey(e.kind, e.subject.id, e.authorId);
      const own = voidReason(e);
      const duplicate = ONE_PER_ACCOUNT.has(e.kind) && taken.has(key);
      reasons.set(e, duplicate ? 'duplicate' : own);
      if (!duplicate && own === null && ONE_PER_ACCOUNT.has(e.kind) && !deleting.has(e.id)) taken.add(key);
    }
    const inserted = await db
      .insertInto('stream_records')
      .values(
        chunk.map((e) => {
          const reason = reasons.get(e);
          return {
            id: e.id,
            kind: e.kind,
            subject_id: e.subject.id,
            author_id: e.authorId,
            created_at: e.createdAt,
            cid: e.cid ?? null,
            line: recordLine({ ...e, subjectId: e.subject.id, cid: e.cid ?? null }),
            ...(reason ? { state: 'void' as const, void_reason: reason, void_at: now } : {}),
          };
        }),
      )
      .onConflict((oc) => oc.columns(['id', 'kind']).doNothing())
      .returning(['id', 'kind'])
      .execute();
    const fresh = new Set(inserted.map((r) => `${r.id}|${r.kind}`));
    counted.push(...chunk.filter((e) => reasons.get(e) !== 'duplicate' && fresh.delete(`${e.id}|${e.kind}`)));
  }
  return counted;
}

/**
 * Keeps the proofs of records just counted (those whose source brought one: the stream's commit frame), in the
 * batch's transaction; a proof goes with its record's row (the foreign key cascades). A replay keeps the first.
 */
export async function keepProofs(db: Db, edges: readonly Edge[], now: Date): Promise<void> {
  const rows = edges.flatMap((e) =>
    e.proof && e.cid ? [{ record_id: e.id, kind: e.kind, cid: e.cid, car: e.proof, captured_at: now }] : [],
  );
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('record_proofs')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['record_id', 'kind']).doNothing())
      .execute();
}

/**
 * Deleted records: each is kept, void ('deleted', since `now`), as the evidence that it was there and went.
 * Returns what each had been (`counted`: it had given its post a point, to take back; else it gave nothing). A
 * record already void as deleted is left as it is, so a replayed deletion takes back nothing.
 */
export async function uncount(
  db: Db,
  ids: readonly string[],
  now: Date,
): Promise<Array<{ id: string; kind: RecordKind; subject_id: string; counted: boolean }>> {
  if (ids.length === 0) return [];
  // `old` is the same row joined again: it reads the state from before this update.
  const rows = await db
    .updateTable('stream_records as r')
    .from('stream_records as old')
    .set({ state: 'void', void_reason: 'deleted', void_at: now })
    .whereRef('old.id', '=', 'r.id')
    .whereRef('old.kind', '=', 'r.kind')
    .where('r.id', 'in', ids)
    .where((eb) => eb.or([eb('r.state', '=', 'counted'), eb('r.void_reason', 'is distinct from', 'deleted')]))
    .returning(['r.id', 'r.kind', 'r.subject_id', 'old.state as was'])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    subject_id: r.subject_id,
    counted: r.was === 'counted',
  }));
}

/**
 * Forgets void records that have been void since before `cutoff`: they count nothing, and no post they name moves
 * any more. Counted records are never pruned: they are the public evidence behind the board's points (issue 30;
 * docs/networks.md, "Checking the board").
 */
export async function pruneVoidRecords(db: Db, cutoff: Date): Promise<void> {
  await db.deleteFrom('stream_records').where('state', '=', 'void').where('void_at', '<', cutoff).execute();
}

/** Adds points a post's counts hold without a record (records that went while its counts no longer moved). */
export async function addUntraced(db: Db, rows: ReadonlyArray<PostMetrics & { id: string }>): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}::text, ${r.likes}::integer, ${r.replies}::integer, ${r.reposts}::integer, ${r.quotes}::integer)`,
    ),
  );
  await sql`
    update posts set untraced_likes = greatest(0, untraced_likes + v.likes),
      untraced_replies = greatest(0, untraced_replies + v.replies),
      untraced_reposts = greatest(0, untraced_reposts + v.reposts),
      untraced_quotes = greatest(0, untraced_quotes + v.quotes)
    from (values ${values}) as v(id, likes, replies, reposts, quotes)
    where posts.id = v.id
  `.execute(db);
}
