import { describe, expect, it } from 'vitest';
import { findReferralChains, type ReferralLink } from './referral-chains';
import { findRings, type EngagementCount } from './rings';
import { findSpikes, type DailyEngagement } from './spikes';

const DAY = 86_400_000;

/** Everyone in `group` engages `n` times with everyone else in it. */
const clique = (group: string[], n: number): EngagementCount[] =>
  group.flatMap((a) => group.filter((b) => b !== a).map((b) => ({ actorId: a, authorId: b, count: n })));

describe('findRings', () => {
  it('flags a closed reciprocal group and not the friends, fans or pairs around it', () => {
    const ring = ['r1', 'r2', 'r3', 'r4'];
    const counts: EngagementCount[] = [
      ...clique(ring, 3),
      // A friendly pair: reciprocal, but a pair is not a ring.
      { actorId: 'p1', authorId: 'p2', count: 9 },
      { actorId: 'p2', authorId: 'p1', count: 9 },
      // Honest friends: a reciprocal triangle whose audience is much wider.
      ...clique(['h1', 'h2', 'h3'], 1),
      ...['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].flatMap((fan) =>
        ['h1', 'h2', 'h3'].map((h) => ({ actorId: fan, authorId: h, count: 2 })),
      ),
      // One stray edge joins the ring to the friends; one outsider likes a ring member once.
      { actorId: 'r1', authorId: 'h1', count: 1 },
      { actorId: 'h1', authorId: 'r1', count: 1 },
      { actorId: 'f1', authorId: 'r2', count: 1 },
    ];
    const findings = findRings(counts);
    expect(findings.map((f) => f.memberId).sort()).toEqual(ring);
    const r2 = findings.find((f) => f.memberId === 'r2');
    expect(r2).toMatchObject({ received: 10, fromCluster: 9, cluster: ring, density: 1, reciprocity: 1 });
    expect(r2?.share).toBeCloseTo(0.9);
    expect(r2?.topEngagers[0]).toMatchObject({ inCluster: true, count: 3 });
  });

  it('needs enough received engagement, and a dense cluster', () => {
    expect(findRings(clique(['a', 'b', 'c'], 1))).toEqual([]); // 2 received each: too little to judge
    expect(findRings(clique(['a', 'b', 'c'], 3)).length).toBe(3);
    // A chain a-b-c-d-e of reciprocal pairs is sparse (density 0.4): no ring.
    const chain = ['a', 'b', 'c', 'd', 'e'].flatMap((x, i, all) => {
      const y = all[i + 1];
      return y ? clique([x, y], 5) : [];
    });
    expect(findRings(chain)).toEqual([]);
  });

  it('a member outsiders notice too is flagged when they also feed the ring', () => {
    const ring = ['r1', 'r2', 'r3'];
    const outside = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'].map((o) => ({
      actorId: o,
      authorId: 'r1',
      count: 1,
    }));
    expect(findRings([...clique(ring, 3), ...outside]).map((f) => f.memberId)).toContain('r1'); // 6 of 12: gives all
    const honest = [
      ...clique(ring, 3),
      ...outside,
      ...['x', 'y', 'z', 'w'].map((x) => ({ actorId: 'r1', authorId: x, count: 3 })),
    ];
    expect(findRings(honest).map((f) => f.memberId)).not.toContain('r1'); // gives 6 of 18 to the group
  });
});

describe('findReferralChains', () => {
  const at = Date.parse('2026-11-20T00:00:00Z');
  const link = (referrerId: string, refereeId: string, ageDays: number | null): ReferralLink => ({
    referrerId,
    refereeId,
    linkedAt: new Date(at),
    refereeCreatedAt: ageDays === null ? null : new Date(at - ageDays * DAY),
  });

  it('flags referrers above a chain of fresh accounts, with depth and width', () => {
    const links = [
      link('root', 'a', 3),
      link('a', 'b', 2),
      link('a', 'c', 1),
      link('b', 'd', 5),
      link('root', 'old', 900),
      // An honest referrer: old accounts and one of unknown age.
      link('honest', 'x', 400),
      link('honest', 'y', 1200),
      link('honest', 'z', null),
      link('honest', 'w', 10),
    ];
    const findings = findReferralChains(links);
    expect(findings.map((f) => f.memberId)).toEqual(['a', 'root']);
    expect(findings[1]).toMatchObject({ depth: 3, width: 2, size: 5, fresh: 4, freshShare: 0.8 });
    expect(findings[1]?.members.find((m) => m.id === 'd')).toMatchObject({
      depth: 3,
      referrerId: 'b',
      fresh: true,
    });
    // 'a' has only three below it, all fresh: flagged as well once it reaches minFresh.
    expect(
      findReferralChains(links, { freshDays: 30, minFresh: 2, minFreshShare: 0.6 }).map((f) => f.memberId),
    ).toEqual(['a', 'root']);
  });

  it('survives a referral loop', () => {
    expect(findReferralChains([link('a', 'b', 1), link('b', 'a', 1)])).toEqual([]);
  });
});

describe('findSpikes', () => {
  const days = (authorId: string, values: number[]): DailyEngagement[] =>
    values.map((engagement, i) => ({
      authorId,
      day: `2026-11-${String(10 + i).padStart(2, '0')}`,
      engagement,
    }));

  it('flags a day far above the author’s own median, not a steady author or a good day', () => {
    const findings = findSpikes([
      ...days('spiky', [20, 25, 18, 22, 30, 400]),
      ...days('steady', [200, 210, 190, 205, 220, 260]),
      ...days('good-day', [20, 25, 18, 22, 30, 90]),
      ...days('new', [0, 500]),
    ]);
    expect(findings.map((f) => f.memberId)).toEqual(['spiky']);
    expect(findings[0]).toMatchObject({ day: '2026-11-15', engagement: 400, median: 22, historyDays: 5 });
    expect(findings[0]?.ratio).toBeGreaterThan(18);
  });
});
