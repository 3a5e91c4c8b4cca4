import { sql } from 'kysely';
import type { Db, FairnessFlagKind } from '../../db/schema';
import type { EngagementCount } from './rings';
import type { DailyEngagement } from './spikes';
import type { ReferralLink } from './referral-chains';

/**
 * Who engaged with whose tracked posts since `since`: replies and quotes a search showed (engagement_edges) and
 * the likes, reposts, replies and quotes an event stream brought (stream_records), each joined to the post's
 * author. Neutral: both paths store network user ids.
 */
export async function engagementCounts(db: Db, since: Date): Promise<EngagementCount[]> {
  const edges = await db
    .selectFrom('engagement_edges as e')
    .innerJoin('posts as p', 'p.id', 'e.subject_id')
    .select(['e.actor_id as actorId', 'p.author_id as authorId', (eb) => eb.fn.countAll<string>().as('n')])
    .where('e.created_at', '>=', since)
    .whereRef('e.actor_id', '<>', 'p.author_id')
    .groupBy(['e.actor_id', 'p.author_id'])
    .execute();
  const streamed = await db
    .selectFrom('stream_records as r')
    .innerJoin('posts as p', 'p.id', 'r.subject_id')
    .select(['r.author_id as actorId', 'p.author_id as authorId', (eb) => eb.fn.countAll<string>().as('n')])
    .where('r.created_at', '>=', since)
    .whereRef('r.author_id', '<>', 'p.author_id')
    .groupBy(['r.author_id', 'p.author_id'])
    .execute();
  return [...edges, ...streamed].map((r) => ({
    actorId: r.actorId,
    authorId: r.authorId,
    count: Number(r.n),
  }));
}

/** Each author's engagement per UTC day of their live tracked posts created since `since`. */
export async function dailyEngagement(db: Db, since: Date): Promise<DailyEngagement[]> {
  const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('posts')
    .select([
      'author_id as authorId',
      day.as('day'),
      sql<string>`sum(likes + replies + reposts + quotes)`.as('engagement'),
    ])
    .where('created_at', '>=', since)
    .where('status', '=', 'live')
    .groupBy(['author_id', day])
    .execute();
  return rows.map((r) => ({ authorId: r.authorId, day: r.day, engagement: Number(r.engagement) }));
}

/** Every referral with the referee's account age, by network user id. */
export async function referralLinks(db: Db): Promise<ReferralLink[]> {
  const rows = await db
    .selectFrom('referrals as r')
    .innerJoin('accounts as referee', 'referee.id', 'r.referee_account_id')
    .innerJoin('accounts as referrer', 'referrer.id', 'r.referrer_account_id')
    .select([
      'referrer.network_user_id as referrerId',
      'referee.network_user_id as refereeId',
      'r.created_at as linkedAt',
      'referee.network_created_at as refereeCreatedAt',
    ])
    .execute();
  return rows;
}

/** Handles of members by network user id (authors first, linked accounts for the rest). */
export async function handlesOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const handles = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    for (const r of await db
      .selectFrom('accounts')
      .select(['network_user_id', 'handle'])
      .where('network_user_id', 'in', chunk)
      .execute())
      handles.set(r.network_user_id, r.handle);
    for (const r of await db
      .selectFrom('authors')
      .select(['id', 'handle'])
      .where('id', 'in', chunk)
      .execute())
      handles.set(r.id, r.handle);
  }
  return handles;
}

export type NewFlag = {
  subjectId: string;
  kind: FairnessFlagKind;
  handle: string;
  score: number;
  reason: string;
  evidence: Record<string, unknown>;
};

/**
 * Makes the stored flags exactly `flags`: new ones are added, standing ones updated (keeping when they were first
 * raised and any review), and those the detector no longer raises are removed. Call it in one transaction.
 */
export async function replaceFlags(db: Db, flags: readonly NewFlag[], now: Date): Promise<void> {
  const keep = new Set(flags.map((f) => `${f.kind}|${f.subjectId}`));
  const stored = await db.selectFrom('fairness_flags').select(['subject_id', 'kind']).execute();
  for (const row of stored) {
    if (keep.has(`${row.kind}|${row.subject_id}`)) continue;
    await db
      .deleteFrom('fairness_flags')
      .where('subject_id', '=', row.subject_id)
      .where('kind', '=', row.kind)
      .execute();
  }
  for (let i = 0; i < flags.length; i += 200) {
    await db
      .insertInto('fairness_flags')
      .values(
        flags.slice(i, i + 200).map((f) => ({
          subject_id: f.subjectId,
          kind: f.kind,
          handle: f.handle,
          score: f.score,
          reason: f.reason,
          evidence: JSON.stringify(f.evidence),
          first_flagged_at: now,
          computed_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['subject_id', 'kind']).doUpdateSet((eb) => ({
          handle: eb.ref('excluded.handle'),
          score: eb.ref('excluded.score'),
          reason: eb.ref('excluded.reason'),
          evidence: eb.ref('excluded.evidence'),
          computed_at: eb.ref('excluded.computed_at'),
        })),
      )
      .execute();
  }
}

const flagColumns = [
  'subject_id',
  'kind',
  'handle',
  'score',
  'reason',
  'evidence',
  'first_flagged_at',
  'computed_at',
  'reviewed_at',
  'reviewed_by',
  'review_note',
] as const;

/** Flags, strongest first, optionally of one kind; `total` counts them all. */
export async function listFlags(db: Db, query: { kind?: FairnessFlagKind; limit: number; offset: number }) {
  let base = db.selectFrom('fairness_flags');
  if (query.kind) base = base.where('kind', '=', query.kind);
  const rows = await base
    .select(flagColumns)
    .orderBy('score', 'desc')
    .orderBy('subject_id')
    .orderBy('kind')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

/** One member's flags. */
export async function flagsOf(db: Db, subjectId: string) {
  return db
    .selectFrom('fairness_flags')
    .select(flagColumns)
    .where('subject_id', '=', subjectId)
    .orderBy('kind')
    .execute();
}

/** Records an operator's review of a flag; undefined when there is no such flag. */
export async function setReview(
  db: Db,
  key: { subjectId: string; kind: FairnessFlagKind },
  review: { by: string; note: string; at: Date },
) {
  return db
    .updateTable('fairness_flags')
    .set({ reviewed_at: review.at, reviewed_by: review.by, review_note: review.note })
    .where('subject_id', '=', key.subjectId)
    .where('kind', '=', key.kind)
    .returning(flagColumns)
    .executeTakeFirst();
}
