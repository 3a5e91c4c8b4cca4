import { storedAnswer, type StoredAnswer } from '../../http/representations';

/** A stored answer (JSON, ETag, compressed forms made once per encoding) and when it was stored. */
type Entry = StoredAnswer & { storedAt: number };

/**
 * Serialised answers of the public reads, kept until the leaderboard changes. Whether it changed is asked of
 * the database (the totals stamp the worker bumps) at most once per `checkMs`, so several API processes stay in
 * step with the worker without talking to it; an in-process worker also invalidates directly.
 */
export class LeaderboardCache {
  private entries = new Map<string, Entry>();
  private stamp: string | undefined;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;
  /** Answers served from the cache and answers built, since start (read by the metrics at each scrape). */
  hits = 0;
  misses = 0;
  /** Answers served past their age because the database failed (get). */
  stale = 0;

  constructor(
    private readonly readStamp: () => Promise<string>,
    private readonly options: { checkMs: number; maxEntries: number; maxAgeMs: number },
  ) {}

  /** Drops every entry (the worker just changed the totals). */
  invalidate(): void {
    this.entries.clear();
    this.checkedAt = 0;
  }

  /**
   * The cached answer for `key` when no check of the stamp is due and it is still young; undefined otherwise
   * (then `get`). Synchronous, so a hit costs a map lookup and no promise.
   */
  peek(key: string): Entry | undefined {
    const now = Date.now();
    if (now - this.checkedAt >= this.options.checkMs) return undefined;
    const hit = this.entries.get(key);
    if (!hit || now - hit.storedAt >= this.options.maxAgeMs) return undefined;
    this.hits++;
    return hit;
  }

  /**
   * The cached answer for `key`, or a fresh one from `build` (serialised once, with its ETag). When the database
   * fails (the stamp or the build throws: it restarts, refuses connections), the last answer stored for `key` is
   * served however old, as HTTP's stale-if-error does, rather than a 500 to every reader of the board; with none
   * stored, the error stands. An entry is dropped only when the totals change (which a database that fails does not
   * do), so what is served is the last board the database gave.
   */
  async get(key: string, build: () => Promise<unknown>): Promise<Entry> {
    try {
      return await this.fresh(key, build);
    } catch (error) {
      const last = this.entries.get(key);
      if (!last) throw error;
      this.stale++;
      return last;
    }
  }

  private async fresh(key: string, build: () => Promise<unknown>): Promise<Entry> {
    await this.revalidate();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.storedAt < this.options.maxAgeMs) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const entry: Entry = { ...storedAnswer(await build()), storedAt: now };
    if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    if (this.options.maxAgeMs > 0) this.entries.set(key, entry);
    return entry;
  }

  private async revalidate(): Promise<void> {
    if (Date.now() - this.checkedAt < this.options.checkMs) return;
    this.checking ??= (async () => {
      try {
        const stamp = await this.readStamp();
        if (stamp !== this.stamp) {
          this.entries.clear();
          this.stamp = stamp;
        }
        this.checkedAt = Date.now();
      } finally {
        this.checking = undefined;
      }
    })();
    await this.checking;
  }
}
