import type { Edge } from './stream-events';

/** Edges whose subject was not known yet, kept in memory for a while (events of different accounts arrive unordered). */
export const ORPHAN_LIMIT = 50_000;
export const ORPHAN_TTL_MS = 15 * 60_000;

/**
 * The waiting room of likes, reposts, replies and quotes whose post the stream has not shown yet: at most
 * ORPHAN_LIMIT of them, each for ORPHAN_TTL_MS; the oldest leave first.
 */
export class Orphans {
  private readonly bySubject = new Map<string, Edge[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The edges waiting for a post (they stay until `release`). */
  waitingFor(postId: string): readonly Edge[] | undefined {
    return this.bySubject.get(postId);
  }

  release(postId: string): void {
    this.count -= this.bySubject.get(postId)?.length ?? 0;
    this.bySubject.delete(postId);
  }

  add(edge: Edge): void {
    const list = this.bySubject.get(edge.subject.id);
    if (list) list.push(edge);
    else this.bySubject.set(edge.subject.id, [edge]);
    this.count++;
  }

  /** Oldest first (a Map iterates in insertion order): past the age or over the limit, they are dropped. */
  evict(now: number): void {
    for (const [id, list] of this.bySubject) {
      const first = list[0];
      if (this.count <= ORPHAN_LIMIT && first && now - first.seenAt < ORPHAN_TTL_MS) break;
      this.bySubject.delete(id);
      this.count -= list.length;
    }
  }
}
