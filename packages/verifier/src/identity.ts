import { getPublicKeyFromDidController, type FoundPublicKey } from '@atcute/crypto';
import * as z from 'zod/mini';
import { FetchError } from './fetch-error';
import type { Http } from './http';

/** What the verifier needs of an account: where its repository is served, and the key its commits are signed with. */
export type Identity = { did: string; pds: string; key: FoundPublicKey; handle: string | null };

/** An account whose DID document could not be read or used; `gone` when the directory says it does not exist. */
export class IdentityError extends Error {
  constructor(
    message: string,
    readonly gone = false,
  ) {
    super(message);
    this.name = 'IdentityError';
  }
}

const didDocumentSchema = z.object({
  id: z.string(),
  alsoKnownAs: z.optional(z.array(z.string())),
  verificationMethod: z.optional(
    z.array(z.object({ id: z.string(), type: z.string(), publicKeyMultibase: z.optional(z.string()) })),
  ),
  service: z.optional(z.array(z.object({ id: z.string(), type: z.unknown(), serviceEndpoint: z.unknown() }))),
});
type DidDocument = z.infer<typeof didDocumentSchema>;

/**
 * Resolves DIDs to their PDS and signing key, once per DID (concurrent asks share one fetch): did:plc through the
 * PLC directory (`plcUrl`), did:web through `https://<host>/.well-known/did.json`.
 */
export class Identities {
  private readonly cache = new Map<string, Promise<Identity>>();

  constructor(
    private readonly http: Http,
    private readonly plcUrl: string,
  ) {}

  resolve(did: string): Promise<Identity> {
    let found = this.cache.get(did);
    if (!found) this.cache.set(did, (found = this.load(did)));
    return found;
  }

  private async load(did: string): Promise<Identity> {
    const url = documentUrl(did, this.plcUrl);
    let body: Uint8Array;
    try {
      body = (
        await this.http.get(url, { accept: 'application/did+ld+json, application/json', maxBytes: 256_000 })
      ).body;
    } catch (error) {
      const status = error instanceof FetchError ? error.status : undefined;
      if (status === 404 || status === 410) {
        throw new IdentityError(`the DID ${did} does not exist (its directory answers HTTP ${status})`, true);
      }
      throw new IdentityError(`the DID document of ${did} could not be read: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      throw new IdentityError(`the DID document of ${did} is not JSON`);
    }
    const parsed = didDocumentSchema.safeParse(json);
    if (!parsed.success) throw new IdentityError(`the DID document of ${did} is not a DID document`);
    return identityOf(did, parsed.data);
  }
}

function documentUrl(did: string, plcUrl: string): string {
  if (did.startsWith('did:plc:')) return new URL(`/${encodeURIComponent(did)}`, plcUrl).href;
  if (did.startsWith('did:web:')) {
    const rest = did.slice('did:web:'.length);
    // atproto's did:web names a host (a port written %3A), never a path.
    if (rest.includes(':')) throw new IdentityError(`${did} names a path, which AT Protocol does not allow`);
    return `https://${decodeURIComponent(rest)}/.well-known/did.json`;
  }
  throw new IdentityError(`${did} is not a did:plc or did:web`);
}

/** The PDS endpoint and #atproto key of a document, checked. */
export function identityOf(did: string, doc: DidDocument): Identity {
  if (doc.id !== did) throw new IdentityError(`the DID document of ${did} is for ${doc.id}`);
  const method = doc.verificationMethod?.find((m) => m.id === '#atproto' || m.id === `${did}#atproto`);
  if (!method?.publicKeyMultibase)
    throw new IdentityError(`the DID document of ${did} has no #atproto signing key`);
  let key: FoundPublicKey;
  try {
    key = compressed(
      getPublicKeyFromDidController({ type: method.type, publicKeyMultibase: method.publicKeyMultibase }),
    );
  } catch {
    throw new IdentityError(`the #atproto key in the DID document of ${did} is not a key we can read`);
  }
  const service = doc.service?.find(
    (s) =>
      (s.id === '#atproto_pds' || s.id === `${did}#atproto_pds`) && s.type === 'AtprotoPersonalDataServer',
  );
  const endpoint = typeof service?.serviceEndpoint === 'string' ? service.serviceEndpoint : null;
  if (!endpoint) throw new IdentityError(`the DID document of ${did} names no PDS (#atproto_pds)`);
  let pds: URL;
  try {
    pds = new URL(endpoint);
  } catch {
    throw new IdentityError(`the PDS of ${did} is not a URL (${endpoint.slice(0, 100)})`);
  }
  if (pds.protocol !== 'https:' && pds.protocol !== 'http:') {
    throw new IdentityError(`the PDS of ${did} is not an http(s) URL (${endpoint.slice(0, 100)})`);
  }
  const aka = doc.alsoKnownAs?.find((a) => a.startsWith('at://'));
  return { did, pds: pds.origin, key, handle: aka ? aka.slice('at://'.length) : null };
}

/**
 * A key in its compressed form. Documents in the older form (`EcdsaSecp256k1VerificationKey2019`, as the local
 * network's PLC directory still writes them) carry the uncompressed point (0x04‖x‖y), which the key import
 * refuses; the compressed point is 0x02 or 0x03 (y even or odd) ‖ x, the same key.
 */
function compressed(key: FoundPublicKey): FoundPublicKey {
  const bytes = key.publicKeyBytes;
  if (bytes.length !== 65 || bytes[0] !== 0x04) return key;
  const point = new Uint8Array(33);
  point[0] = (bytes[64]! & 1) === 1 ? 0x03 : 0x02;
  point.set(bytes.subarray(1, 33), 1);
  return { ...key, publicKeyBytes: point };
}
