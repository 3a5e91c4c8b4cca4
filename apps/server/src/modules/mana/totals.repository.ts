import { sql } from 'kysely';
import type { Db } from '../../db/schema';

export type TotalsRow = {
  period: string;
  authorId: string;
  mana: number;
  posts: number;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  firstTrackedAt: Date;
};

/** Replaces the given authors' rows in every period with `rows` (authors absent from rows vanish). */
export async function replaceTotals(db: Db, authorIds: readonly string[], rows: readonly TotalsRow[]) {
  if (authorIds.length > 0) {
    await db.deleteFrom('mana_totals').where('author_id', 'in', authorIds).execute();
  }
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('mana_totals')
      .values(
        rows.slice(i, i + 1000).map((r) => ({
          period: r.period,
          author_id: r.authorId,
          mana: r.mana,
          posts: r.posts,
          likes: r.likes,
          replies: r.replies,
          reposts: r.reposts,
          quotes: r.quotes,
          first_tracked_at: r.firstTrackedAt,
        })),
      )
      .execute();
  }
}

/** Periods where the given authors have rows (their old rows: a rerank must cover where they left too). */
export async function periodsOf(db: Db, authorIds: readonly string[]): Promise<string[]> {
  if (authorIds.length === 0) return [];
  const rows = await db
    .selectFrom('mana_totals')
    .select('period')
    .distinct()
    .where('author_id', 'in', authorIds)
    .execute();
  return rows.map((r) => r.period);
}

/**
 * Global ranks within each period: more Mana first, ties by the earlier first tracked post (then id, so a rank
 * is never shared). Only rows whose rank moved are written.
 */
export async function rerank(db: Db, periods: readonly string[]): Promise<void> {
  if (periods.length === 0) return;
  await sql`
    update mana_totals as t set rank = r.rn
    from (
      select period, author_id,
        row_number() over (partition by period order by mana desc, first_tracked_at asc, author_id asc) as rn
      from mana_totals where period in (${sql.join([...new Set(periods)])})
    ) as r
    where t.period = r.period and t.author_id = r.author_id and t.rank <> r.rn
  `.execute(db);
}

/** Every period with rows (a full rebuild reranks them all). */
export async function allPeriods(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('mana_totals').select('period').distinct().execute();
  return rows.map((r) => r.period);
}

const STAMP_JOB = 'leaderboard';

/** Records that the leaderboard changed; API processes compare this stamp to drop their cached pages. */
export async function bumpTotalsStamp(db: Db, now: Date): Promise<void> {
  await db
    .insertInto('ingest_state')
    .values({ job: STAMP_JOB, cursor: JSON.stringify({ version: 1 }), updated_at: now, last_success_at: now })
    .onConflict((oc) =>
      oc.column('job').doUpdateSet({
        cursor: sql`jsonb_build_object('version', coalesce((ingest_state.cursor->>'version')::bigint, 0) + 1)`,
        updated_at: now,
        last_success_at: now,
      }),
    )
    .execute();
}

/** The leaderboard's change stamp: a version that grows with every change, and when it changed. */
export async function totalsStamp(db: Db): Promise<{ version: string; updatedAt: Date | null }> {
  const row = await db
    .selectFrom('ingest_state')
    .select(['cursor', 'updated_at'])
    .where('job', '=', STAMP_JOB)
    .executeTakeFirst();
  if (!row) return { version: '0', updatedAt: null };
  return { version: String(row.cursor.version ?? '0'), updatedAt: row.updated_at };
}
