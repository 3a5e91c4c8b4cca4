import type { Db } from '../../db/schema';
import type { PostMetrics } from '../../social/social-network';
import type { Edge, RecordKind } from './stream-events';

/** A tracked post as a batch needs it: when it was written, whether its counts still move, its counts. */
export type TrackedPost = { createdAt: Date; live: boolean; metrics: PostMetrics };

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

/** Keeps each record by id: returns the edges seen for the first time (a replay returns none of them). */
export async function countOnce(db: Db, edges: readonly Edge[]): Promise<Edge[]> {
  const counted: Edge[] = [];
  for (let i = 0; i < edges.length; i += 500) {
    const chunk = edges.slice(i, i + 500);
    const inserted = await db
      .insertInto('stream_records')
      .values(
        chunk.map((e) => ({
          id: e.id,
          kind: e.kind,
          subject_id: e.subject.id,
          author_id: e.authorId,
          created_at: e.createdAt,
        })),
      )
      .onConflict((oc) => oc.columns(['id', 'kind']).doNothing())
      .returning(['id', 'kind'])
      .execute();
    const fresh = new Set(inserted.map((r) => `${r.id}|${r.kind}`));
    counted.push(...chunk.filter((e) => fresh.delete(`${e.id}|${e.kind}`)));
  }
  return counted;
}

/** Forgets deleted records: returns what each of them had counted on which post. */
export async function uncount(
  db: Db,
  ids: readonly string[],
): Promise<Array<{ id: string; kind: RecordKind; subject_id: string }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .deleteFrom('stream_records')
    .where('id', 'in', ids)
    .returning(['id', 'kind', 'subject_id'])
    .execute();
  return rows.map((r) => ({ ...r, kind: r.kind as RecordKind }));
}

/** Records older than `cutoff` can move no post any more. */
export async function pruneRecords(db: Db, cutoff: Date): Promise<void> {
  await db.deleteFrom('stream_records').where('created_at', '<', cutoff).execute();
}
