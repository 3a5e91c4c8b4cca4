import { parseRecordUri, type RecordAddress } from './at-uri';
import type { RepositoryLease } from './author-repositories';
import { FetchError } from './fetch-error';
import { xrpcError, type Http } from './http';
import { IdentityError, type Identities, type Identity } from './identity';
import { ProofError, revTime, verifyRecordProof, type ProvenRecord } from './proof';
import { collectionOfKind, subjectOf, typeOf } from './record-kinds';

/** A record the ledger names: a record line, an interaction's record, or the published post. */
export type NamedRecord = {
  line: number;
  uri: string;
  cid: string | null;
  kind: 'like' | 'repost' | 'reply' | 'quote';
  /** The post it must be about. */
  post: string;
  author: string;
};

export type RecordOutcome =
  { status: 'ok' } | { status: 'missing' | 'changed' | 'deleted since' | 'unreachable'; detail: string };

/** Asks the operator for the proof it kept of a record (deletion-evidence.ts); null when it has none. */
export type KeptProof = (uri: string) => Promise<{ car: Uint8Array; capturedAt: string } | null | string>;

const NOT_FOUND = new Set([
  'RecordNotFound',
  'RepoNotFound',
  'RepoDeactivated',
  'RepoTakendown',
  'RepoSuspended',
]);

/**
 * Fetches a record from its author's own server with the repository's proof and checks it says what the ledger
 * says. A record the server no longer has is "deleted since" when the operator kept a proof, under the author's
 * signature, that it existed; else "missing". With a `repository` lease the record is found in its author's
 * whole repository, verified once (author-repositories.ts), and fetched with its own proof only when that
 * repository cannot say: the outcome is the same either way.
 */
export async function checkRecord(
  named: NamedRecord,
  deps: { http: Http; identities: Identities; keptProof: KeptProof | null },
  repository: RepositoryLease | null = null,
): Promise<RecordOutcome> {
  const address = parseRecordUri(named.uri);
  if (!address) return { status: 'missing', detail: `${named.uri} is not a record's AT URI` };
  let identity: Identity;
  try {
    identity = await deps.identities.resolve(address.did);
  } catch (error) {
    if (error instanceof IdentityError && error.gone)
      return absent(named, address, null, error.message, deps);
    return { status: 'unreachable', detail: (error as Error).message };
  }
  const inRepository = await repository?.find(identity, address);
  const fetched = inRepository ? { proven: inRepository } : await fetchProof(deps.http, identity, address);
  if ('unreachable' in fetched) return { status: 'unreachable', detail: fetched.unreachable };
  if ('notFound' in fetched) return absent(named, address, identity, fetched.notFound, deps);
  if (!fetched.proven.found) {
    const at = revTime(fetched.proven.rev);
    return absent(
      named,
      address,
      identity,
      `its author's server proves it absent${at ? ` (at ${at})` : ''}`,
      deps,
    );
  }
  return compare(named, address, fetched.proven);
}

type Fetched = { proven: ProvenRecord } | { notFound: string } | { unreachable: string };

async function fetchProof(http: Http, identity: Identity, address: RecordAddress): Promise<Fetched> {
  const url = new URL('/xrpc/com.atproto.sync.getRecord', identity.pds);
  url.searchParams.set('did', address.did);
  url.searchParams.set('collection', address.collection);
  url.searchParams.set('rkey', address.rkey);
  let car: Uint8Array;
  try {
    car = (await http.get(url.href, { accept: 'application/vnd.ipld.car', maxBytes: 2_000_000 })).body;
  } catch (error) {
    const name = error instanceof FetchError ? xrpcError(error.body)?.error : undefined;
    if (name && NOT_FOUND.has(name)) return { notFound: `its author's server answers ${name}` };
    return { unreachable: (error as Error).message };
  }
  try {
    return { proven: await verifyRecordProof({ car, ...address, key: identity.key, keyAt: identity.keyAt }) };
  } catch (error) {
    if (error instanceof ProofError)
      return { unreachable: `${identity.pds} gave a proof that does not hold: ${error.message}` };
    throw error;
  }
}

/** The record as fetched against the ledger's line: CID, kind (by collection and $type), subject, author. */
function compare(
  named: NamedRecord,
  address: RecordAddress,
  proven: ProvenRecord & { found: true },
): RecordOutcome {
  const problems = sayingProblems(named, address, proven.record);
  if (named.cid !== null && proven.cid !== named.cid) {
    return {
      status: 'changed',
      detail: `CID is ${proven.cid}, the ledger says ${named.cid}${problems.length ? `; ${problems.join('; ')}` : ''}`,
    };
  }
  if (problems.length > 0) return { status: 'changed', detail: problems.join('; ') };
  return { status: 'ok' };
}

function sayingProblems(named: NamedRecord, address: RecordAddress, record: unknown): string[] {
  const problems: string[] = [];
  const collection = collectionOfKind[named.kind];
  if (address.collection !== collection) problems.push(`a ${named.kind} must be a ${collection}`);
  const type = typeOf(record);
  if (type !== address.collection) problems.push(`the record is a ${type ?? 'record without $type'}`);
  const subject = subjectOf(named.kind, record);
  if (subject !== named.post) {
    problems.push(
      `the record's ${named.kind} subject is ${subject ?? 'missing'}, the ledger says ${named.post}`,
    );
  }
  if (address.did !== named.author)
    problems.push(`the record is ${address.did}'s, the ledger says ${named.author}'s`);
  return problems;
}

/** The record is not on its author's server: deleted since, when the operator's kept proof shows it existed. */
async function absent(
  named: NamedRecord,
  address: RecordAddress,
  identity: Identity | null,
  why: string,
  deps: { keptProof: KeptProof | null },
): Promise<RecordOutcome> {
  if (!deps.keptProof) return { status: 'missing', detail: why };
  const kept = await deps.keptProof(named.uri);
  if (kept === null) return { status: 'missing', detail: `${why}, and the operator kept no proof of it` };
  if (typeof kept === 'string') return { status: 'missing', detail: `${why}; the operator's proof: ${kept}` };
  if (!identity)
    return { status: 'missing', detail: `${why}; no key left to check the operator's proof with` };
  let proven: ProvenRecord;
  try {
    proven = await verifyRecordProof({ car: kept.car, ...address, key: identity.key, keyAt: identity.keyAt });
  } catch (error) {
    return {
      status: 'missing',
      detail: `${why}; the operator's proof does not hold: ${(error as Error).message}`,
    };
  }
  if (!proven.found) return { status: 'missing', detail: `${why}; the operator's proof shows it absent too` };
  const then = compare(named, address, proven);
  if (then.status !== 'ok')
    return { status: 'missing', detail: `${why}; the operator's proof is of another record: ${then.detail}` };
  const signedAt = revTime(proven.rev);
  return {
    status: 'deleted since',
    detail: `${why}; its author signed it${signedAt ? ` at ${signedAt}` : ''} (proof kept by the operator at ${kept.capturedAt})`,
  };
}
