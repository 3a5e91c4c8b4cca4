/** How many accounts' creation dates are kept in memory (the oldest read is dropped first). */
export const ACCOUNT_AGE_CACHE_SIZE = 10_000;

type AuditEntry = { createdAt?: unknown; nullified?: unknown };

/**
 * When an account was created, from a source its owner cannot write (the anti-bot gate reads it).
 *
 * The AppView's `createdAt` is NOT used: the open-source AppView takes it from the profile record, which the
 * member's own client writes, so a new account could claim to be years old. Instead:
 * - did:plc: the PLC directory's audit log (`GET {plc}/{did}/log/audit`); its first operation (the genesis that
 *   created the DID) carries `createdAt`, the time the directory received it, set by the directory. The genesis
 *   can never be rewritten (a recovery only nullifies later operations), so a date read once is kept, in a bounded
 *   cache, and the directory is asked once per account per process.
 * - any other method (did:web): nothing the member does not control dates it (the DID document is served from
 *   the member's own domain), so the account has no known age: null, which the gate refuses (treated as new).
 *
 * A directory that does not answer gives null too (this link cannot prove an age; the next link reads again).
 */
export class AccountAge {
  private readonly cache = new Map<string, Date>();

  constructor(
    private readonly options: {
      plcUrl: string;
      fetch?: typeof globalThis.fetch;
      maxEntries?: number;
      timeoutMs?: number;
    },
  ) {}

  async createdAt(did: string): Promise<Date | null> {
    if (!did.startsWith('did:plc:')) return null;
    const cached = this.cache.get(did);
    if (cached) return cached;
    const found = await this.fromDirectory(did);
    if (found) this.remember(did, found);
    return found;
  }

  private async fromDirectory(did: string): Promise<Date | null> {
    const fetch = this.options.fetch ?? globalThis.fetch;
    const url = new URL(`/${encodeURIComponent(did)}/log/audit`, this.options.plcUrl);
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch {
      return null; // the directory did not answer: no age can be shown by this link
    }
    if (!response.ok) {
      // Not found (a DID the directory does not have) or a failing directory: no age can be shown.
      await response.body?.cancel();
      return null;
    }
    const log = (await response.json()) as unknown;
    if (!Array.isArray(log) || log.length === 0) return null;
    const first = log[0] as AuditEntry;
    if (first.nullified === true || typeof first.createdAt !== 'string') return null;
    const at = new Date(first.createdAt);
    return Number.isNaN(at.getTime()) ? null : at;
  }

  private remember(did: string, at: Date): void {
    const max = this.options.maxEntries ?? ACCOUNT_AGE_CACHE_SIZE;
    while (this.cache.size >= max) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    this.cache.set(did, at);
  }

  /** Accounts whose date is held (tests: the cache stays bounded). */
  get size(): number {
    return this.cache.size;
  }
}
