import type { Db } from '../../db/schema';

export type EngagementEdge = {
  id: string;
  kind: 'reply' | 'quote';
  actorId: string;
  subjectId: string;
  createdAt: Date;
};

/**
 * Keeps who replied to or quoted which post, as a search page showed it (the fairness detector's interaction
 * graph); the same edge seen twice is kept once.
 */
export async function recordEngagementEdges(db: Db, edges: readonly EngagementEdge[]): Promise<void> {
  for (let i = 0; i < edges.length; i += 500) {
    const chunk = edges.slice(i, i + 500);
    await db
      .insertInto('engagement_edges')
      .values(
        chunk.map((e) => ({
          id: e.id,
          kind: e.kind,
          actor_id: e.actorId,
          subject_id: e.subjectId,
          created_at: e.createdAt,
        })),
      )
      .onConflict((oc) => oc.columns(['id', 'kind']).doNothing())
      .execute();
  }
}
