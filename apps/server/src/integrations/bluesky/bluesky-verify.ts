import { IdResolver, MemoryCache } from '@atproto/identity';
import { decode, encode, fromBytes, isBytes } from '@atcute/cbor';
import { P256PublicKey, parseDidKey, Secp256k1PublicKey, type PublicKey } from '@atcute/crypto';
import type { CarBlocks } from './bluesky-car';
import { linkBytes, type CommitBody, type CommitVerifier } from './bluesky-commit';
import { STREAM_COLLECTIONS } from './bluesky-events';
import { checkedBlock, ProofError, provenAt } from './bluesky-mst';

/** Signing keys kept at most (the oldest used leaves first): memory stays bounded however many accounts write. */
export const KEY_CACHE_LIMIT = 100_000;

const WANTED = new Set(STREAM_COLLECTIONS);

type Commit = { did?: unknown; data?: unknown; sig?: unknown; [field: string]: unknown };

/**
 * Verified mode (BLUESKY_VERIFY_COMMITS): a commit counts only if it is its account's own. Its signature is checked
 * with @atcute/crypto against the account's current signing key (resolved from its DID document once and kept,
 * KEY_CACHE_LIMIT at most; read again after an identity event or when a signature fails, as a rotated key would),
 * and every op of the collections read is proven from the signed tree (bluesky-mst.ts): a record's CID is the one
 * the tree holds at its path, a deletion's path holds nothing. Otherwise the commit is skipped.
 */
export class BlueskyCommitVerifier implements CommitVerifier {
  private readonly keys = new Map<string, Promise<PublicKey | null>>();
  private readonly resolver: IdResolver;

  constructor(options: { plcUrl: string; allowHttp: boolean; keyCacheLimit?: number }) {
    this.limit = options.keyCacheLimit ?? KEY_CACHE_LIMIT;
    this.resolver = new IdResolver({
      plcUrl: options.plcUrl,
      didCache: new MemoryCache(),
      // The default fetch refuses http: (SSRF protection); only a local test network is reached over http.
      ...(options.allowHttp ? { fetch: globalThis.fetch } : {}),
    });
  }

  private readonly limit: number;

  forget(did: string): void {
    this.keys.delete(did);
  }

  async verify(body: CommitBody, blocks: CarBlocks): Promise<string | null> {
    try {
      const commitCid = linkBytes(body.commit);
      if (!commitCid) return 'the commit has no CID';
      const commit = decode(checkedBlock(blocks, commitCid)) as Commit;
      if (commit.did !== body.repo) return 'the commit is of another repository';
      const sig = isBytes(commit.sig) ? fromBytes(commit.sig) : null;
      const root = linkBytes(commit.data);
      if (!sig || !root) return 'the commit has no signature or no tree';
      const { sig: _signature, ...unsigned } = commit;
      const signed = encode(unsigned);
      if (!(await this.signedBy(body.repo, sig, signed, false))) {
        if (!(await this.signedBy(body.repo, sig, signed, true))) return "the signature is not the account's";
      }
      for (const op of Array.isArray(body.ops)
        ? (body.ops as Array<{ path?: unknown; cid?: unknown }>)
        : []) {
        if (typeof op.path !== 'string' || !WANTED.has(op.path.split('/')[0] ?? '')) continue;
        const claimed = linkBytes(op.cid);
        const held = provenAt(blocks, root, op.path);
        const same =
          claimed === null || held === null
            ? claimed === held
            : claimed.length === held.length && claimed.every((b, i) => b === held[i]);
        if (!same) return `${op.path}: the op is not what the signed tree holds`;
        if (claimed) checkedBlock(blocks, claimed);
      }
      return null;
    } catch (error) {
      if (error instanceof ProofError) return error.message;
      return `unreadable commit: ${(error as Error).message}`;
    }
  }

  private async signedBy(did: string, sig: Uint8Array, data: Uint8Array, fresh: boolean): Promise<boolean> {
    if (fresh) this.keys.delete(did);
    let key = this.keys.get(did);
    if (key) {
      // Most recently used last: the Map's order is the eviction order.
      this.keys.delete(did);
      this.keys.set(did, key);
    } else {
      key = this.resolve(did, fresh);
      this.keys.set(did, key);
      while (this.keys.size > this.limit) {
        const oldest = this.keys.keys().next().value;
        if (oldest === undefined) break;
        this.keys.delete(oldest);
      }
    }
    const publicKey = await key;
    if (!publicKey) return false;
    return publicKey.verify(sig as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>);
  }

  private async resolve(did: string, fresh: boolean): Promise<PublicKey | null> {
    try {
      const didKey = await this.resolver.did.resolveAtprotoKey(did, fresh);
      const found = parseDidKey(didKey);
      return found.type === 'p256'
        ? await P256PublicKey.importRaw(found.publicKeyBytes)
        : await Secp256k1PublicKey.importRaw(found.publicKeyBytes);
    } catch {
      // Unresolvable now: not cached as a failure for long (read again at the next commit of this account).
      this.keys.delete(did);
      return null;
    }
  }
}
