import type { Kysely } from 'kysely';
import type { Appeal, MemberStanding } from '@manaboard/contract';
import type {
  AnswerAppealRequest,
  AppealList,
  AppealListQuery,
  OperatorAppeal,
} from '@manaboard/contract/admin';
import type { Database, Db } from '../../db/schema';
import { AppError, CatalogueError, NotFoundError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.repository';
import type { AccountRow } from '../linking/accounts.repository';
import * as repo from './appeals.repository';

/** An appeal as the member (and the console) shows it. */
export function appealView(row: repo.AppealRow): Appeal {
  return {
    id: String(row.id),
    text: row.text,
    createdAt: row.created_at.toISOString(),
    answer: row.answer,
    answeredAt: row.answered_at?.toISOString() ?? null,
  };
}

const notLinked: MemberStanding = {
  linked: false,
  disqualified: false,
  reason: null,
  disqualifiedAt: null,
  canAppeal: false,
  appeal: null,
};

/**
 * `GET /me/standing`: the linked member's disqualification (with the operator's reason), whether they may still
 * appeal it (one appeal per disqualification), and their latest appeal with its answer.
 */
export async function memberStanding(db: Db, account: AccountRow | undefined): Promise<MemberStanding> {
  if (!account) return notLinked;
  const author = await repo.authorStanding(db, account.network_user_id);
  const [latest] = await repo.appealsOfAuthor(db, account.network_user_id);
  const disqualified = Boolean(author?.disqualified);
  const at = disqualified ? (author?.disqualified_at ?? null) : null;
  const appealed = Boolean(latest && at && latest.disqualified_at.getTime() === at.getTime());
  return {
    linked: true,
    disqualified,
    reason: disqualified ? (author?.disqualified_reason ?? null) : null,
    disqualifiedAt: at?.toISOString() ?? null,
    canAppeal: disqualified && at !== null && !appealed,
    appeal: latest ? appealView(latest) : null,
  };
}

/**
 * `POST /me/appeal`: the member's one appeal against their current disqualification, audited. Not linked → 401;
 * not disqualified, or already appealed → 409 CONFLICT. The text is validated by the contract (10–500 chars).
 */
export async function submitAppeal(
  db: Kysely<Database>,
  input: { account: AccountRow | undefined; text: string; now: Date },
): Promise<Appeal> {
  const { account } = input;
  if (!account) throw new CatalogueError(401, 'UNAUTHORIZED');
  return db.transaction().execute(async (trx) => {
    const author = await repo.authorStanding(trx, account.network_user_id);
    if (!author?.disqualified || !author.disqualified_at) {
      throw new AppError(409, 'CONFLICT', 'Your account is not disqualified: there is nothing to appeal.');
    }
    const stored = await repo.insertAppeal(trx, {
      authorId: author.id,
      disqualifiedAt: author.disqualified_at,
      text: input.text,
      now: input.now,
    });
    if (!stored) throw new AppError(409, 'CONFLICT', 'You have already sent an appeal.');
    await recordAudit(trx, {
      actor: `account:${account.id}`,
      action: 'appeal.submit',
      subject: author.id,
      details: {
        handle: author.handle,
        appealId: String(stored.id),
        before: null,
        after: { text: stored.text },
      },
    });
    return appealView(stored);
  });
}

/**
 * The operator answers an appeal (or changes their answer), audited with before and after; the answer shows on
 * the member's card. Unknown appeal → 404. Requalifying is a separate action (setAuthorDisqualified).
 */
export async function answerAppeal(
  db: Kysely<Database>,
  input: AnswerAppealRequest & { actor: string; now: Date },
): Promise<Appeal> {
  return db.transaction().execute(async (trx) => {
    const appeal = await repo.appealForUpdate(trx, input.appealId);
    if (!appeal) throw new NotFoundError('No such appeal');
    const saved = await repo.saveAnswer(trx, appeal.id, {
      text: input.answer,
      by: input.actor,
      at: input.now,
    });
    await recordAudit(trx, {
      actor: input.actor,
      action: 'appeal.answer',
      subject: appeal.author_id,
      details: {
        appealId: String(appeal.id),
        before: { answer: appeal.answer, answeredBy: appeal.answered_by },
        after: { answer: saved.answer, answeredBy: saved.answered_by },
      },
    });
    return appealView(saved);
  });
}

/** The console's appeal list: open (unanswered) or all, newest first. */
export async function listAppeals(db: Db, query: AppealListQuery): Promise<AppealList> {
  const { rows, total } = await repo.listAppeals(db, {
    open: query.status === 'open',
    limit: query.limit,
    offset: query.offset,
  });
  const appeals: OperatorAppeal[] = rows.map((r) => ({
    ...appealView(r),
    authorId: r.author_id,
    handle: r.handle,
    disqualifiedAt: r.disqualified_at.toISOString(),
    reason: r.reason,
    answeredBy: r.answered_by,
  }));
  return { appeals, total };
}

/** Every appeal of one author, newest first (the member's page in the console). */
export async function appealsOf(db: Db, authorId: string): Promise<Appeal[]> {
  return (await repo.appealsOfAuthor(db, authorId)).map(appealView);
}
