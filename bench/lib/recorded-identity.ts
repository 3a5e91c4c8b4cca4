// The recorded accounts' DID documents, as the PLC directory of the recording's network served them (that network
// is gone): their handle and signing key, for the benches' stand-in directories (stream-reader.ts, stream.ts,
// replay-child.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordingMeta } from './firehose-recording';

export function recordedDidDocument(meta: RecordingMeta, did: string): object | null {
  const key = meta.signingKeys[did];
  const account = meta.accounts.find((a) => a.did === did);
  if (!key || !account) return null;
  return {
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: did,
    alsoKnownAs: [`at://${account.handle}`],
    verificationMethod: [
      {
        id: `${did}#atproto`,
        type: 'Multikey',
        controller: did,
        publicKeyMultibase: key.replace('did:key:', ''),
      },
    ],
    service: [
      { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'http://pds.invalid' },
    ],
  };
}

/** A PLC directory answering for the recorded accounts: their DID documents with their signing keys. */
export async function startStandInPlc(
  meta: RecordingMeta,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const document = recordedDidDocument(meta, decodeURIComponent((req.url ?? '/').slice(1)));
    if (!document) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
