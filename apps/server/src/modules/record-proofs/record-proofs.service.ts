import type { LedgerProofResponse } from '@manaboard/contract/ledger';
import type { Db } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { findProof } from './record-proofs.repository';

/**
 * The proof the programme kept of a record it counted (docs/ledger-format.md, "Records deleted since"). The week
 * names the ledger the verifier reads; a record's proof is the same whichever week asks (its commit dates it), so
 * the week is only validated.
 */
export async function keptProof(db: Db, uri: string): Promise<LedgerProofResponse> {
  const proof = await findProof(db, uri);
  if (!proof) throw new NotFoundError('No proof kept for this record');
  return {
    success: true,
    data: {
      uri,
      cid: proof.cid,
      capturedAt: proof.capturedAt.toISOString(),
      car: Buffer.from(proof.car).toString('base64'),
    },
  };
}
