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

/**
 * Makes the given authors' rows in every period equal `rows` (authors or periods absent from rows vanish).
 * Rows that did not change are not written at all; changed ones are updated in place, new ones inserted (rank
 * 0 until the rerank of the same transaction).
 */
export async function replaceTotals(db: Db, authorIds: readonly string[], rows: readonly TotalsRow[]) {
  if (authorIds.length > 0) {
    // The kept keys as two arrays (two parameters, not two a row: issue 33).
    await sql`
      delete from mana_totals t where t.author_id in (${sql.join([...authorIds])})
      ${
        rows.length > 0
          ? sql`and not exists (select 1 from unnest(${rows.map((r) => r.period)}::text[],
              ${rows.map((r) => r.authorId)}::text[]) as k(period, author_id)
              where k.period = t.period and k.author_id = t.author_id)`
          : sql``
      }
    `.execute(db);
  }
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const column = <T>(value: (r: TotalsRow) => T) => chunk.map(value);
    // The rows as nine arrays, one a column: nine parameters, where a VALUES list took nine a row (~4,800 for the
    // demo's totals) and cost PGlite more to parse and bind than the rows themselves (issue 33).
    await sql`
      insert into mana_totals (period, author_id, mana, posts, likes, replies, reposts, quotes, first_tracked_at)
      select * from unnest(${column((r) => r.period)}::text[], ${column((r) => r.authorId)}::text[],
        ${column((r) => r.mana)}::integer[], ${column((r) => r.posts)}::integer[],
        ${column((r) => r.likes)}::integer[], ${column((r) => r.replies)}::integer[],
        ${column((r) => r.reposts)}::integer[], ${column((r) => r.quotes)}::integer[],
        ${column((r) => r.firstTrackedAt.toISOString())}::timestamptz[])
      on conflict (period, author_id) do update set mana = excluded.mana, posts = excluded.posts,
        likes = excluded.likes, replies = excluded.replies, reposts = excluded.reposts, quotes = excluded.quotes,
        first_tracked_at = excluded.first_tracked_at
      where (mana_totals.mana, mana_totals.posts, mana_totals.likes, mana_totals.replies, mana_totals.reposts,
          mana_totals.quotes, mana_totals.first_tracked_at)
        is distinct from (excluded.mana, excluded.posts, excluded.likes, excluded.replies, excluded.reposts,
          excluded.quotes, excluded.first_tracked_at)
    `.execute(db);
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
 * is never shared). The window reads the board's order index (migration 0008), and only rows whose rank moved
 * are written; `rank` is in no index, so those writes stay heap-only.
 */
export async function rerank(db: Db, periods: readonly string[]): Promise<void> {
  // One period a statement: the window then reads that period's slice of the order index, already sorted.
  for (const period of [...new Set(periods)].sort()) {
    await sql`
      update mana_totals as t set rank = r.rn
      from (
        select author_id,
          row_number() over (order by mana desc, first_tracked_at asc, author_id asc) as rn
        from mana_totals where period = ${period}
      ) as r
      where t.period = ${period} and t.author_id = r.author_id and t.rank <> r.rn
    `.execute(db);
  }
}

/** Every period with rows (a full rebuild reranks them all). */
export async function allPeriods(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('mana_totals').select('period').distinct().execute();
  return rows.map((r) => r.period);
}

/** The ingest_state row whose version grows with every change of the leaderboard. */
export const TOTALS_STAMP_JOB = 'leaderboard';

/** Records that the leaderboard changed; API processes compare this stamp to drop their cached pages. */
export async function bumpTotalsStamp(db: Db, now: Date): Promise<void> {
  await db
    .insertInto('ingest_state')
    .values({
      job: TOTALS_STAMP_JOB,
      cursor: JSON.stringify({ version: 1 }),
      updated_at: now,
      last_success_at: now,
    })
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
    .where('job', '=', TOTALS_STAMP_JOB)
    .executeTakeFirst();
  if (!row) return { version: '0', updatedAt: null };
  return { version: String(row.cursor.version ?? '0'), updatedAt: row.updated_at };
}
