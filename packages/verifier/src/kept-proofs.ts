import { ledgerProofResponseSchema } from '@manaboard/contract/ledger';
import { FetchError } from './fetch-error';
import type { Http } from './http';
import type { KeptProof } from './record-check';

/**
 * The operator's evidence for a record deleted since (docs/ledger-format.md, "Records deleted since"):
 * `GET <origin>/api/ledger/<week>/proof?uri=…`. Null for a 404 (no proof kept, or no such route: then every
 * record that is gone is "missing"); a sentence when the answer is unusable.
 */
export function keptProofs(http: Http, origin: string, week: string): KeptProof {
  return async (uri) => {
    const url = new URL(`/api/ledger/${encodeURIComponent(week)}/proof`, origin);
    url.searchParams.set('uri', uri);
    let body: Uint8Array;
    try {
      body = (await http.get(url.href, { accept: 'application/json', maxBytes: 1_500_000 })).body;
    } catch (error) {
      if (error instanceof FetchError && error.status === 404) return null;
      return (error as Error).message;
    }
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      return 'the answer is not JSON';
    }
    const parsed = ledgerProofResponseSchema.safeParse(json);
    if (!parsed.success) return 'the answer is not a proof (ledgerProofResponseSchema)';
    if (parsed.data.data.uri !== uri) return `the answer is the proof of ${parsed.data.data.uri}`;
    return { car: Buffer.from(parsed.data.data.car, 'base64'), capturedAt: parsed.data.data.capturedAt };
  };
}
