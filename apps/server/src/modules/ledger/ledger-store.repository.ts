import type { Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../db/schema';
import { recordAudit, type AuditEntry } from '../audit/audit.repository';
import type { LedgersTable } from '../../db/schema-ledger';
import type { NetworkName } from '../../social/social-network';

export type EditionRow = Selectable<LedgersTable>;

/**
 * A build's row is gone or belongs to another build now (dropped as stale, then started again): what it wrote is
 * not this edition, so it stores nothing.
 */
export class EditionLostError extends Error {
  override readonly name = 'EditionLostError';
}

type BuildKey = { week: string; edition: number; token: string };

function lost(key: BuildKey): EditionLostError {
  return new EditionLostError(
    `ledger ${key.week} edition ${key.edition}: this build lost its row (dropped as stale or taken by another build); nothing was stored`,
  );
}

/**
 * Starts an edition: its row, `building` (never served). False when the week already has this edition (another
 * process builds or built it), so two builders never write one edition.
 */
export async function startEdition(
  db: Db,
  row: {
    week: string;
    edition: number;
    /** The build's random token: its later writes count only while the row holds it. */
    token: string;
    network: NetworkName;
    closedAt: Date;
    createdBy: string;
    reason: string | null;
    now: Date;
  },
): Promise<boolean> {
  const inserted = await db
    .insertInto('ledgers')
    .values({
      week: row.week,
      edition: row.edition,
      state: 'building',
      network: row.network,
      closed_at: row.closedAt,
      created_at: row.now,
      updated_at: row.now,
      created_by: row.createdBy,
      reason: row.reason,
      build_token: row.token,
    })
    .onConflict((oc) => oc.columns(['week', 'edition']).doNothing())
    .returning('edition')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Appends a piece of an edition's bytes, gzip'd, and notes the build is alive at `now` (the time of writing, so a
 * long build that keeps writing is never taken for a dead one). The row is touched first, only while it holds the
 * build's token (the update locks it against a concurrent drop); EditionLostError when it does not.
 */
export async function appendChunk(
  db: Db,
  chunk: BuildKey & { seq: number; data: Uint8Array; rawLength: number; now: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const touched = await trx
      .updateTable('ledgers')
      .set({ updated_at: chunk.now })
      .where('week', '=', chunk.week)
      .where('edition', '=', chunk.edition)
      .where('state', '=', 'building')
      .where('build_token', '=', chunk.token)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) !== 1) throw lost(chunk);
    await trx
      .insertInto('ledger_chunks')
      .values({
        week: chunk.week,
        edition: chunk.edition,
        seq: chunk.seq,
        data: chunk.data,
        raw_length: chunk.rawLength,
      })
      .execute();
  });
}

/**
 * Makes a whole edition servable, in one transaction with its audit line (a correction's): from now on its bytes
 * never change.
 */
export async function finishEdition(
  db: Kysely<Database>,
  key: BuildKey,
  done: { sha256: string; byteLength: number; gzipLength: number; members: number; mana: number; now: Date },
  /** What this build appended: the stored chunks must be exactly these (no other build's among them). */
  wrote: { chunks: number; rawLength: number },
  audit?: AuditEntry,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('ledgers')
      .set({
        state: 'stored',
        sha256: done.sha256,
        byte_length: done.byteLength,
        gzip_length: done.gzipLength,
        members: done.members,
        mana: done.mana,
        updated_at: done.now,
        build_token: null,
      })
      .where('week', '=', key.week)
      .where('edition', '=', key.edition)
      .where('state', '=', 'building')
      .where('build_token', '=', key.token)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw lost(key);
    const chunks = await trx
      .selectFrom('ledger_chunks')
      .select((eb) => [eb.fn.countAll().as('chunks'), eb.fn.sum('raw_length').as('raw')])
      .where('week', '=', key.week)
      .where('edition', '=', key.edition)
      .executeTakeFirstOrThrow();
    if (Number(chunks.chunks) !== wrote.chunks || Number(chunks.raw ?? 0) !== wrote.rawLength)
      throw new Error(
        `ledger ${key.week} edition ${key.edition}: ${Number(chunks.chunks)} chunks of ${Number(chunks.raw ?? 0)} bytes stored, this build wrote ${wrote.chunks} of ${wrote.rawLength}; nothing was stored`,
      );
    if (audit) await recordAudit(trx, audit);
  });
}

/** Drops this build's edition while it is still being built (its chunks go with it); never another build's. */
export async function dropBuilding(db: Db, key: BuildKey): Promise<void> {
  await db
    .deleteFrom('ledgers')
    .where('week', '=', key.week)
    .where('edition', '=', key.edition)
    .where('state', '=', 'building')
    .where('build_token', '=', key.token)
    .execute();
}

/** Drops builds that made no progress since `before` (their process died mid-build). */
export async function dropStaleBuilds(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('ledgers')
    .where('state', '=', 'building')
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every stored edition, newest week first, editions in order. */
export async function storedEditions(db: Db): Promise<EditionRow[]> {
  return db
    .selectFrom('ledgers')
    .selectAll()
    .where('state', '=', 'stored')
    .orderBy('week', 'desc')
    .orderBy('edition')
    .execute();
}

/** One stored edition of a week, or its newest when `edition` is omitted. */
export async function storedEdition(db: Db, week: string, edition?: number): Promise<EditionRow | undefined> {
  let query = db.selectFrom('ledgers').selectAll().where('week', '=', week).where('state', '=', 'stored');
  if (edition !== undefined) query = query.where('edition', '=', edition);
  return query.orderBy('edition', 'desc').limit(1).executeTakeFirst();
}

/** The next edition number of a week (1 when it has none), counting builds under way. */
export async function nextEditionNumber(db: Db, week: string): Promise<number> {
  const row = await db
    .selectFrom('ledgers')
    .select((eb) => eb.fn.max('edition').as('last'))
    .where('week', '=', week)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** The piece of an edition after `seq` (keyset: one piece per read). */
export async function chunkAfter(
  db: Db,
  key: { week: string; edition: number },
  seq: number,
): Promise<{ seq: number; data: Uint8Array } | undefined> {
  return db
    .selectFrom('ledger_chunks')
    .select(['seq', 'data'])
    .where('week', '=', key.week)
    .where('edition', '=', key.edition)
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/** Stored editions whose hash is not published yet and whose next attempt is due. */
export async function duePublications(db: Db, now: Date): Promise<EditionRow[]> {
  return db
    .selectFrom('ledgers')
    .selectAll()
    .where('state', '=', 'stored')
    .where('published_uri', 'is', null)
    .where((eb) => eb.or([eb('publish_next_at', 'is', null), eb('publish_next_at', '<=', now)]))
    .orderBy('week')
    .orderBy('edition')
    .execute();
}

/** The official account's post of an edition's hash. */
export async function markPublished(
  db: Db,
  key: { week: string; edition: number },
  post: { uri: string; cid: string; at: Date; url: string | null },
): Promise<void> {
  await db
    .updateTable('ledgers')
    .set({
      published_uri: post.uri,
      published_cid: post.cid,
      published_at: post.at,
      published_url: post.url,
      publish_error: null,
      publish_next_at: null,
    })
    .where('week', '=', key.week)
    .where('edition', '=', key.edition)
    .execute();
}

/** A failed attempt: why, and when to try again. */
export async function markPublishFailed(
  db: Db,
  key: { week: string; edition: number },
  failure: { attempts: number; error: string; nextAt: Date },
): Promise<void> {
  await db
    .updateTable('ledgers')
    .set({
      publish_attempts: failure.attempts,
      publish_error: failure.error,
      publish_next_at: failure.nextAt,
    })
    .where('week', '=', key.week)
    .where('edition', '=', key.edition)
    .execute();
}

/** Whether every post written in the week is final (its counts and Mana no longer move). */
export async function weekPostsFinal(db: Db, week: { from: Date; to: Date }): Promise<boolean> {
  const open = await db
    .selectFrom('posts')
    .select('id')
    .where('created_at', '>=', week.from)
    .where('created_at', '<', week.to)
    .where('final', '=', false)
    .limit(1)
    .executeTakeFirst();
  return open === undefined;
}
