import { ordinal } from '../../lib/text-order';
/** How often one author engaged with another's posts (likes, replies, quotes, reposts) in the window. */
export type EngagementCount = { actorId: string; authorId: string; count: number };

export type RingThresholds = {
  /** Engagement an author must have received to be judged at all (a few friends' likes prove nothing). */
  minReceived: number;
  /** The smallest cluster called a ring (a reciprocal pair is two friends). */
  minClusterSize: number;
  /** Share of the other cluster members each member must engage with both ways (so also the cluster's density). */
  minDensity: number;
  /** Share of the member's received engagement that comes from the rest of the cluster. */
  minShare: number;
  /**
   * A lower received share still flags a member who also gives at least `minGivenShare` of their own engagement
   * to the cluster (both halves of a ring: they feed it and it feeds them, while outsiders also notice them).
   */
  minShareWhenGiving: number;
  minGivenShare: number;
};

export const DEFAULT_RING_THRESHOLDS: RingThresholds = {
  minReceived: 5,
  minClusterSize: 3,
  minDensity: 0.6,
  minShare: 0.6,
  minShareWhenGiving: 0.4,
  minGivenShare: 0.6,
};

export type RingFinding = {
  memberId: string;
  /** fromCluster / received. */
  share: number;
  /** Share of the engagement this member gave that went to the rest of the cluster. */
  givenShare: number;
  given: number;
  received: number;
  fromCluster: number;
  /** The cluster's members (sorted), this member included. */
  cluster: string[];
  density: number;
  /** Share of the other cluster members this member engages with both ways. */
  reciprocity: number;
  /** Who gave this member the most engagement, most first (at most five). */
  topEngagers: Array<{ id: string; count: number; inCluster: boolean }>;
};

/**
 * Reciprocal-engagement rings. The interaction graph has an arc u→v weighted by how often u engaged with v's
 * posts. Two authors are reciprocal partners when each engaged with the other at least once. A dense reciprocal
 * cluster is found in each connected component of the partner graph by greedy peeling (as in the classic densest-
 * subgraph heuristic): while the member with the fewest partners inside the cluster is a partner of fewer than
 * `minDensity` of the others, it leaves; what peeled off is searched again, so two rings joined by a stray
 * edge are both found. A member of a dense cluster is flagged when at least `minShare` of the engagement they
 * received came from the rest of that cluster and they received at least `minReceived`: their engagement comes
 * mostly from a closed group that engages with each other. A member whose received share is lower (outsiders
 * notice them too) is still flagged when it reaches `minShareWhenGiving` and they give at least `minGivenShare` of
 * their own engagement to the cluster. Honest friends form partner pairs and triangles too,
 * but their audience is wider, so their share stays low. Deterministic: ties break by id.
 */
export function findRings(
  counts: readonly EngagementCount[],
  thresholds: RingThresholds = DEFAULT_RING_THRESHOLDS,
): RingFinding[] {
  const weight = new Map<string, Map<string, number>>();
  const received = new Map<string, Map<string, number>>();
  for (const { actorId, authorId, count } of counts) {
    if (actorId === authorId || count <= 0) continue;
    add(weight, actorId, authorId, count);
    add(received, authorId, actorId, count);
  }
  const partners = new Map<string, Set<string>>();
  for (const [u, out] of weight) {
    for (const v of out.keys()) {
      if (!weight.get(v)?.has(u)) continue;
      link(partners, u, v);
      link(partners, v, u);
    }
  }
  const clusters: string[][] = [];
  const search = (nodes: Set<string>) => {
    for (const component of components(nodes, partners)) {
      if (component.size < thresholds.minClusterSize) continue;
      const core = peel(component, partners, thresholds);
      if (!core) continue;
      clusters.push([...core].sort());
      search(new Set([...component].filter((n) => !core.has(n))));
    }
  };
  search(new Set(partners.keys()));

  const findings: RingFinding[] = [];
  for (const cluster of clusters) {
    const members = new Set(cluster);
    const density = densityOf(members, partners);
    for (const memberId of cluster) {
      const from = received.get(memberId) ?? new Map<string, number>();
      let total = 0;
      let inside = 0;
      for (const [actor, n] of from) {
        total += n;
        if (members.has(actor)) inside += n;
      }
      const share = total ? inside / total : 0;
      let given = 0;
      let givenInside = 0;
      for (const [author, n] of weight.get(memberId) ?? []) {
        given += n;
        if (members.has(author)) givenInside += n;
      }
      const givenShare = given ? givenInside / given : 0;
      const feeds = share >= thresholds.minShareWhenGiving && givenShare >= thresholds.minGivenShare;
      if (total < thresholds.minReceived || (share < thresholds.minShare && !feeds)) continue;
      const mine = partners.get(memberId) ?? new Set<string>();
      findings.push({
        memberId,
        share,
        givenShare,
        given,
        received: total,
        fromCluster: inside,
        cluster,
        density,
        reciprocity: cluster.filter((id) => id !== memberId && mine.has(id)).length / (cluster.length - 1),
        topEngagers: [...from]
          .sort((a, b) => b[1] - a[1] || ordinal(a[0], b[0]))
          .slice(0, 5)
          .map(([id, count]) => ({ id, count, inCluster: members.has(id) })),
      });
    }
  }
  return findings;
}

function add(map: Map<string, Map<string, number>>, a: string, b: string, n: number) {
  const inner = map.get(a) ?? new Map<string, number>();
  inner.set(b, (inner.get(b) ?? 0) + n);
  map.set(a, inner);
}

function link(map: Map<string, Set<string>>, a: string, b: string) {
  const set = map.get(a) ?? new Set<string>();
  set.add(b);
  map.set(a, set);
}

/** Connected components of the partner graph restricted to `nodes`, in id order. */
function components(nodes: Set<string>, partners: Map<string, Set<string>>): Set<string>[] {
  const seen = new Set<string>();
  const result: Set<string>[] = [];
  for (const start of [...nodes].sort()) {
    if (seen.has(start)) continue;
    const component = new Set<string>([start]);
    const queue = [start];
    seen.add(start);
    while (queue.length) {
      const node = queue.pop() as string;
      for (const next of partners.get(node) ?? []) {
        if (!nodes.has(next) || seen.has(next)) continue;
        seen.add(next);
        component.add(next);
        queue.push(next);
      }
    }
    result.push(component);
  }
  return result;
}

function densityOf(nodes: Set<string>, partners: Map<string, Set<string>>): number {
  if (nodes.size < 2) return 0;
  let edges = 0;
  for (const n of nodes) for (const m of partners.get(n) ?? []) if (nodes.has(m)) edges++;
  return edges / (nodes.size * (nodes.size - 1));
}

/**
 * Greedy peeling: while the member with the fewest partners inside the cluster is a partner of fewer than
 * `minDensity` of the others, it leaves. What remains (if any of `minClusterSize`) has every member reciprocal with
 * most of the rest, so its density is at least `minDensity` too.
 */
function peel(
  component: Set<string>,
  partners: Map<string, Set<string>>,
  t: RingThresholds,
): Set<string> | undefined {
  const core = new Set(component);
  while (core.size >= t.minClusterSize) {
    let weakest: { id: string; degree: number } | undefined;
    for (const id of [...core].sort()) {
      let degree = 0;
      for (const m of partners.get(id) ?? []) if (core.has(m)) degree++;
      if (!weakest || degree < weakest.degree) weakest = { id, degree };
    }
    if (!weakest) break;
    if (weakest.degree >= t.minDensity * (core.size - 1)) return core;
    core.delete(weakest.id);
  }
  return undefined;
}
