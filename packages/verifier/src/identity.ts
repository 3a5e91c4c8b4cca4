import { getPublicKeyFromDidController, parseDidKey, type FoundPublicKey } from '@atcute/crypto';
import * as z from 'zod/mini';
import { FetchError } from './fetch-error';
import type { Http } from './http';
import { revTime } from './proof';

/**
 * What the verifier needs of an account: where its repository is served, the key its commits are signed with now,
 * the handle its DID document claims (only a claim until the handle resolves back to the DID: handle.ts), and the
 * key that was in force at a revision (`keyAt`, for a commit signed before the account rotated its key; did:plc
 * only, from the directory's audit log; null when no other key is known).
 */
export type Identity = {
  did: string;
  pds: string;
  key: FoundPublicKey;
  handle: string | null;
  keyAt: (rev: string) => Promise<FoundPublicKey | null>;
};

/** One entry of a did:plc audit log (`GET <plc>/<did>/log/audit`): an operation and when the directory took it. */
const auditSchema = z.array(
  z.object({
    createdAt: z.string(),
    nullified: z.optional(z.boolean()),
    operation: z.object({
      type: z.string(),
      signingKey: z.optional(z.string()),
      verificationMethods: z.optional(z.record(z.string(), z.string())),
    }),
  }),
);
type KeyPeriod = { from: number; key: FoundPublicKey | null };

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
  private readonly histories = new Map<string, Promise<KeyPeriod[] | null>>();

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
    return { ...identityOf(did, parsed.data), keyAt: (rev) => this.keyAt(did, rev) };
  }

  /**
   * The #atproto key a did:plc account had at the time a revision names (a TID: when the commit was made), from
   * the PLC directory's audit log: the newest operation not nullified that the directory took at or before then.
   * Null for a did:web (its document has only its current key), a revision that is not a TID, a time before the
   * account existed, or a log that cannot be read. The directory is trusted for the log as for the document.
   */
  async keyAt(did: string, rev: string): Promise<FoundPublicKey | null> {
    if (!did.startsWith('did:plc:')) return null;
    const at = revTime(rev);
    if (at === null) return null;
    let history = this.histories.get(did);
    if (!history) this.histories.set(did, (history = this.loadHistory(did)));
    const periods = await history;
    if (!periods) return null;
    let found: KeyPeriod | null = null;
    for (const period of periods) if (period.from <= Date.parse(at)) found = period;
    return found?.key ?? null;
  }

  private async loadHistory(did: string): Promise<KeyPeriod[] | null> {
    try {
      const url = new URL(`/${encodeURIComponent(did)}/log/audit`, this.plcUrl).href;
      const body = (await this.http.get(url, { accept: 'application/json', maxBytes: 4_000_000 })).body;
      const parsed = auditSchema.safeParse(JSON.parse(Buffer.from(body).toString('utf8')));
      if (!parsed.success) return null;
      return parsed.data
        .filter((entry) => !entry.nullified)
        .map((entry) => ({ from: Date.parse(entry.createdAt), key: keyOfOperation(entry.operation) }))
        .filter((period) => !Number.isNaN(period.from))
        .sort((a, b) => a.from - b.from);
    } catch {
      return null;
    }
  }
}

/** The signing key an operation sets: `verificationMethods.atproto`, or a legacy create's `signingKey`. */
function keyOfOperation(operation: {
  type: string;
  signingKey?: string;
  verificationMethods?: Record<string, string>;
}) {
  const didKey = operation.type === 'create' ? operation.signingKey : operation.verificationMethods?.atproto;
  if (!didKey) return null;
  try {
    return compressed(parseDidKey(didKey));
  } catch {
    return null;
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
export function identityOf(did: string, doc: DidDocument): Omit<Identity, 'keyAt'> {
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
