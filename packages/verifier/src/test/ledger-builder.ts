import { createHash } from 'node:crypto';
import {
  canonicalJson,
  canonicalLine,
  LEDGER_FORMAT,
  type LedgerLine,
  type LedgerRecord,
  type LedgerRules,
} from '@manaboard/contract/ledger';
import {
  compareCodeUnits,
  compareInteractions,
  comparePosts,
  compareReferrals,
} from '../../../../apps/server/src/modules/ledger/ledger-encode';
import { overDailyLimit, postMana } from '../../../../apps/server/src/modules/mana/scoring';

/**
 * Builds honest ledgers for the tests with the contract's canonical encoder and the SERVER's scoring functions
 * (tests may cross; the verifier's sources may not), so every test that verifies a built ledger also checks that
 * the two arithmetics agree.
 */
export type WorldRecord = Omit<LedgerRecord, 'type' | 'post'>;
export type WorldPost = {
  post: string;
  createdAt: string;
  multiplier?: number;
  status?: 'live' | 'deleted' | 'protected';
  records?: WorldRecord[];
  notTraceable?: Partial<Counts>;
};
export type WorldMember = {
  author: string;
  handle: string;
  firstTrackedAt: string;
  posts?: WorldPost[];
  referrals?: Array<{ at: string; referee: string }>;
  interactions?: Array<{
    at: string;
    kind: 'like' | 'reply' | 'repost';
    post: string;
    record: string | null;
    cid: string | null;
  }>;
};
type Counts = { likes: number; quotes: number; replies: number; reposts: number };

export const defaultRules: LedgerRules = {
  dailyLimit: 5,
  hashtags: ['#mana'],
  interactionRewards: { like: 1, reply: 3, repost: 2 },
  keywords: ['mana'],
  linkedMultiplier: 3,
  officialHandles: ['manahq'],
  referralReward: 50,
  refreshWindowDays: 7,
  settleAfterHours: 24,
  settleByHours: 72,
  weights: { like: 1, quote: 3, reply: 2, repost: 2 },
};

const KEY = { like: 'likes', quote: 'quotes', reply: 'replies', repost: 'reposts' } as const;

export function rulesHash(rules: LedgerRules): string {
  return `sha256:${createHash('sha256').update(canonicalJson(rules)).digest('hex')}`;
}

/** The lines of an honest ledger of `week` (2026-W48 by default: 23 to 30 November 2026). */
export function buildLedgerLines(world: {
  members: WorldMember[];
  rules?: LedgerRules;
  week?: string;
  from?: string;
  to?: string;
  network?: 'bluesky' | 'x';
}): LedgerLine[] {
  const rules = world.rules ?? defaultRules;
  const version = 1;
  const blocks = world.members.map((m) => memberBlock(m, rules, version));
  blocks.sort(
    (a, b) =>
      b.mana - a.mana ||
      (a.member.firstTrackedAt < b.member.firstTrackedAt
        ? -1
        : a.member.firstTrackedAt > b.member.firstTrackedAt
          ? 1
          : 0) ||
      (a.member.author < b.member.author ? -1 : a.member.author > b.member.author ? 1 : 0),
  );
  const lines: LedgerLine[] = [
    {
      closedAt: '2026-12-09T00:00:00.000Z',
      edition: 1,
      format: LEDGER_FORMAT,
      from: world.from ?? '2026-11-23T00:00:00.000Z',
      network: world.network ?? 'bluesky',
      rules: [{ hash: rulesHash(rules), rules, version }],
      state: 'closed',
      to: world.to ?? '2026-11-30T00:00:00.000Z',
      type: 'header',
      week: world.week ?? '2026-W48',
    },
  ];
  let posts = 0;
  let records = 0;
  let notTraceable = 0;
  let mana = 0;
  blocks.forEach((block, i) => {
    lines.push({ ...block.member, mana: block.mana, rank: i + 1, type: 'member' });
    lines.push(...block.lines);
    posts += block.lines.filter((l) => l.type === 'post').length;
    records += block.lines.filter((l) => l.type === 'record').length;
    for (const l of block.lines)
      if (l.type === 'post') notTraceable += Object.values(l.notTraceable).reduce((s, n) => s + n, 0);
    mana += block.mana;
  });
  lines.push({ mana, members: blocks.length, notTraceable, posts, records, type: 'end' });
  return lines;
}

export function encodeLedger(lines: readonly LedgerLine[]): string {
  return lines.map((line) => canonicalLine(line)).join('');
}

function memberBlock(m: WorldMember, rules: LedgerRules, version: number) {
  // The server's own comparators (and, for records, the order its SQL writes: kind, then uri collate "C").
  const posts = [...(m.posts ?? [])].sort(comparePosts);
  const over = overDailyLimit(
    posts.map((p) => ({ id: p.post, createdAt: new Date(p.createdAt) })),
    rules.dailyLimit,
  );
  const lines: LedgerLine[] = [];
  let mana = 0;
  for (const p of posts) {
    const records = [...(p.records ?? [])].sort(
      (a, b) => compareCodeUnits(a.kind, b.kind) || compareCodeUnits(a.uri, b.uri),
    );
    const untraced = { likes: 0, quotes: 0, replies: 0, reposts: 0, ...p.notTraceable };
    const counts = { ...untraced };
    for (const r of records) counts[KEY[r.kind]] += 1;
    const multiplier = p.multiplier ?? 1;
    const live = (p.status ?? 'live') === 'live';
    const overLimit = over.has(p.post);
    const postManaValue = live && !overLimit ? postMana(counts, rules.weights, multiplier) : 0;
    mana += postManaValue;
    lines.push({
      author: m.author,
      counts,
      createdAt: p.createdAt,
      mana: postManaValue,
      multiplier,
      notTraceable: untraced,
      overDailyLimit: overLimit,
      post: p.post,
      rulesVersion: version,
      status: p.status ?? 'live',
      type: 'post',
    });
    for (const r of records) lines.push({ ...r, post: p.post, type: 'record' });
  }
  const referrals = [...(m.referrals ?? [])].sort(compareReferrals);
  for (const r of referrals) {
    lines.push({
      at: r.at,
      author: m.author,
      mana: rules.referralReward,
      referee: r.referee,
      rulesVersion: version,
      type: 'referral',
    });
    mana += rules.referralReward;
  }
  const interactions = [...(m.interactions ?? [])].sort(compareInteractions);
  for (const i of interactions) {
    const reward = rules.interactionRewards[i.kind];
    lines.push({ ...i, author: m.author, mana: reward, rulesVersion: version, type: 'interaction' });
    mana += reward;
  }
  return { member: { author: m.author, firstTrackedAt: m.firstTrackedAt, handle: m.handle }, mana, lines };
}
