import type { Selectable } from 'kysely';
import type { AppealsTable, Db } from '../../db/schema';

export type AppealRow = Selectable<AppealsTable>;

/** The author behind a linked account (the network's user id) with their disqualification, if tracked. */
export async function authorStanding(db: Db, authorId: string) {
  return db
    .selectFrom('authors')
    .select(['id', 'handle', 'disqualified', 'disqualified_reason', 'disqualified_at'])
    .where('id', '=', authorId)
    .executeTakeFirst();
}

/** An author's appeals, newest first. */
export async function appealsOfAuthor(db: Db, authorId: string): Promise<AppealRow[]> {
  return db
    .selectFrom('appeals')
    .selectAll()
    .where('author_id', '=', authorId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Stores an appeal unless one exists for the same disqualification (the unique constraint decides, so two
 * racing sends store one); undefined when it already existed.
 */
export async function insertAppeal(
  db: Db,
  appeal: { authorId: string; disqualifiedAt: Date; text: string; now: Date },
): Promise<AppealRow | undefined> {
  return db
    .insertInto('appeals')
    .values({
      author_id: appeal.authorId,
      disqualified_at: appeal.disqualifiedAt,
      text: appeal.text,
      created_at: appeal.now,
    })
    .onConflict((oc) => oc.columns(['author_id', 'disqualified_at']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** One appeal, locked for an update in the caller's transaction. */
export async function appealForUpdate(db: Db, id: string): Promise<AppealRow | undefined> {
  return db.selectFrom('appeals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function saveAnswer(
  db: Db,
  id: string,
  answer: { text: string; by: string; at: Date },
): Promise<AppealRow> {
  return db
    .updateTable('appeals')
    .set({ answer: answer.text, answered_by: answer.by, answered_at: answer.at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Appeals for the operator, newest first, with the author's handle and current reason. */
export async function listAppeals(db: Db, query: { open: boolean; limit: number; offset: number }) {
  let base = db.selectFrom('appeals as ap').innerJoin('authors as a', 'a.id', 'ap.author_id');
  if (query.open) base = base.where('ap.answered_at', 'is', null);
  const rows = await base
    .selectAll('ap')
    .select(['a.handle', 'a.disqualified_reason as reason'])
    .orderBy('ap.created_at', 'desc')
    .orderBy('ap.id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const count = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  return { rows, total: Number(count?.n ?? 0) };
}
