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

  /**
   * `edge` waits for its post. Its proof is copied: the batch it came in is the source's again once stored, and a
   * source may free its events' proofs then (StreamSource.read; Bluesky's stream thread does), while the edge waits
   * past it and its proof is kept when its post arrives.
   */
  add(edge: Edge): void {
    const kept = edge.proof ? { ...edge, proof: edge.proof.slice() } : edge;
    const list = this.bySubject.get(kept.subject.id);
    if (list) list.push(kept);
    else this.bySubject.set(kept.subject.id, [kept]);
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
