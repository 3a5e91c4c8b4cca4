import type { RecordAddress } from './at-uri';
import type { Http } from './http';
import type { Identity } from './identity';
import { openRepository, ProofError, type ProvenRecord, type VerifiedRepository } from './proof';

/** Records expected of one author (count × sample rate) from which its whole repository is fetched once. */
export const DEFAULT_REPO_THRESHOLD = 8;

/**
 * A repository fetch is capped at 16 KB per record it stands in for: a `getRecord` proof is a few KB (the commit,
 * a tree node per layer, the record; 0.7–0.9 KB on a small repository, docs/networks.md), so a repository over
 * the cap costs more bytes than the proofs it replaces and its author's records are checked one by one instead.
 * At least 1 MB (a few thousand records: not worth a second request to find out), at most 64 MB.
 */
export function repositoryCap(expected: number): number {
  return Math.min(Math.max(Math.ceil(expected) * 16 * 1024, 1024 ** 2), 64 * 1024 ** 2);
}

/** The repositories held at once, at most (their CARs' bytes and the blocks' index). */
const MAX_HELD_BYTES = 256 * 1024 ** 2;

/**
 * The index of a block beside its bytes (its CID string, the view and the map's entry: about 313 bytes measured).
 * A repository's blocks are at most as many as its cap allows at this rate, so a hostile server's CAR of millions of
 * tiny blocks is refused (and its author checked record by record) instead of holding several times its bytes.
 */
const BYTES_PER_BLOCK = 320;

/** One author's repository while records of it are left to check. */
type Held = {
  did: string;
  cap: number;
  /** Bytes counted against MAX_HELD_BYTES: the cap while fetching, then the repository's size (0 if none). */
  reserved: number;
  /** Records being checked against it now. */
  users: number;
  /** No eligible record of the author is left in the ledger: dropped once its users are done. */
  last: boolean;
  dropped: boolean;
  repository: Promise<VerifiedRepository | null> | null;
};

/** A drawn record's claim on its author's repository, for the time of its check. */
export type RepositoryLease = {
  /**
   * The record as its author's verified repository has it, or null: check it with its own proof (the repository
   * could not be fetched, was over its cap or did not hold, or lacks this record's path).
   */
  find(identity: Identity, address: RecordAddress): Promise<ProvenRecord | null>;
  /** The record's check is over. */
  release(): void;
};

/**
 * The authors whose records the run checks many of: each one's whole repository (`com.atproto.sync.getRepo`, the
 * signed commit and every block) is fetched once and verified as a record's proof is (proof.ts), and all its
 * records are found in it, instead of one `getRecord` proof each. A repository is held only while records of its
 * author are left in the ledger (the counts of a first pass, counted off in ledger order, drawn or not), and the
 * bytes held are bounded: beyond MAX_HELD_BYTES further authors are checked record by record.
 */
export class AuthorRepositories {
  /** Authors whose repository was used, those that fell back to per-record proofs, and the records it proved. */
  readonly stats = { repositories: 0, fellBack: 0, records: 0 };
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;

  constructor(
    private readonly http: Http,
    /** Each author's eligible records in the ledger (counted off as the run passes them). */
    private readonly remaining: Map<string, number>,
    private readonly options: { threshold: number; rate: number; maxHeldBytes?: number },
  ) {}

  /** The bytes the repositories held (or being fetched, at their cap) count against the bound. */
  get heldBytesNow(): number {
    return this.heldBytes;
  }

  /**
   * Counts an eligible record off its author's; for a drawn one, a lease on the author's repository when one is
   * held, or worth fetching (its records left × the sample rate reach the threshold) and there is room for it.
   */
  next(did: string, drawn: boolean): RepositoryLease | null {
    const left = this.remaining.get(did) ?? 0;
    if (left <= 1) this.remaining.delete(did);
    else this.remaining.set(did, left - 1);
    let entry = this.held.get(did) ?? null;
    if (!entry && drawn && left * this.options.rate >= this.options.threshold)
      entry = this.reserve(did, left * this.options.rate);
    if (!entry) return null;
    if (left <= 1) entry.last = true;
    if (!drawn) {
      this.settle(entry);
      return null;
    }
    entry.users += 1;
    const held = entry;
    let released = false;
    return {
      find: (identity, address) => this.find(held, identity, address),
      release: () => {
        if (released) return;
        released = true;
        held.users -= 1;
        this.settle(held);
      },
    };
  }

  private reserve(did: string, expected: number): Held | null {
    const cap = repositoryCap(expected);
    // The CAR (while read: its chunks and their concatenation) and then its index: at most twice its cap.
    const reserved = 2 * cap;
    if (this.heldBytes + reserved > (this.options.maxHeldBytes ?? MAX_HELD_BYTES)) return null;
    const entry: Held = {
      did,
      cap,
      reserved,
      users: 0,
      last: false,
      dropped: false,
      repository: null,
    };
    this.heldBytes += reserved;
    this.held.set(did, entry);
    return entry;
  }

  private async find(entry: Held, identity: Identity, address: RecordAddress): Promise<ProvenRecord | null> {
    // One fetch per author: the records that wait on it share it (and count as in flight meanwhile).
    entry.repository ??= this.fetch(entry, identity);
    const repository = await entry.repository;
    if (!repository) return null;
    try {
      const proven = await repository.find(address.collection, address.rkey);
      this.stats.records += 1;
      return proven;
    } catch (error) {
      // A repository that lacks this path's nodes proves nothing of it: its own proof decides.
      if (error instanceof ProofError) return null;
      throw error;
    }
  }

  private async fetch(entry: Held, identity: Identity): Promise<VerifiedRepository | null> {
    const url = new URL('/xrpc/com.atproto.sync.getRepo', identity.pds);
    url.searchParams.set('did', entry.did);
    try {
      const { body } = await this.http.get(url.href, {
        accept: 'application/vnd.ipld.car',
        maxBytes: entry.cap,
      });
      const repository = await openRepository({
        car: body,
        did: entry.did,
        key: identity.key,
        keyAt: identity.keyAt,
        maxBlocks: Math.floor(entry.cap / BYTES_PER_BLOCK),
      });
      this.resize(entry, repository.bytes + repository.blocks * BYTES_PER_BLOCK);
      this.stats.repositories += 1;
      return repository;
    } catch {
      // Over the cap, unreachable, not found, a proof that does not hold, or anything else: each record's own
      // proof then decides, as in per-record mode.
      this.resize(entry, 0);
      this.stats.fellBack += 1;
      return null;
    }
  }

  private resize(entry: Held, bytes: number): void {
    if (entry.dropped) return;
    this.heldBytes += bytes - entry.reserved;
    entry.reserved = bytes;
  }

  private settle(entry: Held): void {
    if (!entry.last || entry.users > 0 || entry.dropped) return;
    entry.dropped = true;
    this.held.delete(entry.did);
    this.heldBytes -= entry.reserved;
    entry.reserved = 0;
  }
}
