import type { Db } from '../../db/schema';

export type KeptProofRow = { cid: string; car: Uint8Array; capturedAt: Date };

/** The proof kept for a record (any of its kinds: a post that replies and quotes has one proof), or undefined. */
export async function findProof(db: Db, recordId: string): Promise<KeptProofRow | undefined> {
  const row = await db
    .selectFrom('record_proofs')
    .select(['cid', 'car', 'captured_at'])
    .where('record_id', '=', recordId)
    .orderBy('kind')
    .limit(1)
    .executeTakeFirst();
  return row ? { cid: row.cid, car: row.car, capturedAt: row.captured_at } : undefined;
}
