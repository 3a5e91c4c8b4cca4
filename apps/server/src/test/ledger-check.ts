import { createHash } from 'node:crypto';
import {
  canonicalJson,
  canonicalLine,
  ledgerLineSchema,
  type LedgerLine,
  type LedgerPost,
  type LedgerRules,
} from '@manaboard/contract/ledger';

/**
 * A reader of a ledger as docs/ledger-format.md defines it, for the tests: every line parses with the contract's
 * schemas and is canonical, the lines come in the format's order, each post's counts are its records plus its
 * not-traceable points, every line's Mana is what its rules give (the format's own restatement of the rules, not
 * the server's scoring), each member's Mana is the sum of their lines, ranks follow the format's order, and the end
 * line adds up. Throws on the first fault; returns what a test compares.
 */
export function checkLedger(text: string) {
  if (!text.endsWith('\n')) throw new Error('the document does not end with a newline');
  const raw = text.slice(0, -1).split('\n');
  const lines = raw.map((l, i) => {
    const parsed = ledgerLineSchema.safeParse(JSON.parse(l));
    if (!parsed.success) throw new Error(`line ${i + 1} does not parse: ${parsed.error.message}\n${l}`);
    if (canonicalLine(parsed.data) !== `${l}\n`) throw new Error(`line ${i + 1} is not canonical: ${l}`);
    return parsed.data;
  });
  const header = lines[0];
  const end = lines.at(-1);
  if (header?.type !== 'header') throw new Error('the first line is not the header');
  if (end?.type !== 'end') throw new Error('the last line is not the end line');
  const rules = new Map<number, LedgerRules>();
  for (const entry of header.rules) {
    const hash = `sha256:${createHash('sha256').update(canonicalJson(entry.rules)).digest('hex')}`;
    if (hash !== entry.hash) throw new Error(`rules v${entry.version} hash mismatch`);
    rules.set(entry.version, entry.rules);
  }
  const named = new Set<number>();
  const rulesOf = (version: number) => {
    const r = rules.get(version);
    if (!r) throw new Error(`a line names rules v${version}, which the header does not list`);
    named.add(version);
    return r;
  };

  type Member = { author: string; mana: number; rank: number; firstTrackedAt: string; sum: number };
  const members: Member[] = [];
  const posts: LedgerPost[] = [];
  const sums = { mana: 0, posts: 0, records: 0, notTraceable: 0 };
  let current: Member | undefined;
  let post: (LedgerPost & { seen: Record<string, number>; last: string }) | undefined;
  const closePost = () => {
    if (!post) return;
    for (const [kind, metric] of [
      ['like', 'likes'],
      ['quote', 'quotes'],
      ['reply', 'replies'],
      ['repost', 'reposts'],
    ] as const) {
      if (post.counts[metric] !== (post.seen[kind] ?? 0) + post.notTraceable[metric])
        throw new Error(`post ${post.post}: ${metric} is not its records plus its not-traceable points`);
    }
    post = undefined;
  };
  const order = { member: 0, post: 1, referral: 2, interaction: 3 } as Record<string, number>;
  let stage = 0;
  let lastKey = '';
  for (const line of lines.slice(1, -1) as LedgerLine[]) {
    if (line.type === 'member') {
      closePost();
      current = { ...line, sum: 0 };
      members.push(current);
      stage = 0;
      lastKey = '';
      continue;
    }
    if (!current) throw new Error(`a ${line.type} line before any member`);
    if (line.type !== 'record') {
      closePost();
      const s = order[line.type] ?? -1;
      if (s < stage) throw new Error(`a ${line.type} line after a later kind of line`);
      if (s > stage) lastKey = '';
      stage = s;
    }
    if ('author' in line && line.type !== 'record' && line.author !== current.author)
      throw new Error(`a line of ${line.author} under member ${current.author}`);
    switch (line.type) {
      case 'post': {
        const key = `${line.createdAt}|${line.post.length.toString().padStart(6, '0')}|${line.post}`;
        if (key <= lastKey) throw new Error(`post ${line.post} is out of order`);
        lastKey = key;
        const r = rulesOf(line.rulesVersion);
        if (line.multiplier !== 1 && line.multiplier !== r.linkedMultiplier)
          throw new Error(`post ${line.post}: multiplier ${line.multiplier}`);
        const expected =
          line.overDailyLimit || line.status !== 'live'
            ? 0
            : line.multiplier *
              (r.weights.like * line.counts.likes +
                r.weights.reply * line.counts.replies +
                r.weights.repost * line.counts.reposts +
                r.weights.quote * line.counts.quotes);
        if (expected !== line.mana)
          throw new Error(`post ${line.post}: Mana ${line.mana}, rules give ${expected}`);
        current.sum += line.mana;
        posts.push(line);
        post = { ...line, seen: {}, last: '' };
        sums.posts++;
        sums.notTraceable += Object.values(line.notTraceable).reduce((a, b) => a + b, 0);
        break;
      }
      case 'record': {
        if (!post || line.post !== post.post) throw new Error(`record ${line.uri} is not under its post`);
        const key = `${line.kind}\u0000${line.uri}`;
        if (key <= post.last) throw new Error(`record ${line.uri} is out of order`);
        post.last = key;
        post.seen[line.kind] = (post.seen[line.kind] ?? 0) + 1;
        sums.records++;
        break;
      }
      case 'referral': {
        const key = `${line.at}\u0000${line.referee}`;
        if (key <= lastKey) throw new Error(`referral ${line.referee} is out of order`);
        lastKey = key;
        if (line.mana !== rulesOf(line.rulesVersion).referralReward)
          throw new Error(`referral ${line.referee}: Mana ${line.mana}`);
        current.sum += line.mana;
        break;
      }
      case 'interaction': {
        const key = `${line.at}\u0000${line.post}\u0000${line.kind}`;
        if (key <= lastKey) throw new Error(`interaction ${line.post} is out of order`);
        lastKey = key;
        if (line.mana !== rulesOf(line.rulesVersion).interactionRewards[line.kind])
          throw new Error(`interaction ${line.post}: Mana ${line.mana}`);
        current.sum += line.mana;
        break;
      }
      default:
        throw new Error(`a ${line.type} line inside the document`);
    }
  }
  closePost();
  checkDailyLimits(posts, rulesOf);
  for (const [i, m] of members.entries()) {
    if (m.sum !== m.mana) throw new Error(`member ${m.author}: Mana ${m.mana}, lines sum to ${m.sum}`);
    if (m.rank !== i + 1) throw new Error(`member ${m.author} has rank ${m.rank} at place ${i + 1}`);
    const prev = members[i - 1];
    if (
      prev &&
      !(
        prev.mana > m.mana ||
        (prev.mana === m.mana &&
          (prev.firstTrackedAt < m.firstTrackedAt ||
            (prev.firstTrackedAt === m.firstTrackedAt && prev.author < m.author)))
      )
    )
      throw new Error(`member ${m.author} ranks after ${prev.author} wrongly`);
    sums.mana += m.mana;
  }
  if (named.size !== header.rules.length) throw new Error('the header lists a rules version no line names');
  const expectedEnd = { ...sums, members: members.length, type: 'end' };
  if (canonicalJson(expectedEnd) !== canonicalJson(end))
    throw new Error(`end line ${canonicalJson(end)} but the document gives ${canonicalJson(expectedEnd)}`);
  return { header, end, members: new Map(members.map((m) => [m.author, { mana: m.mana, rank: m.rank }])) };
}

/** Of one author's posts on one UTC day, only the first dailyLimit by (createdAt, post) are under the limit. */
function checkDailyLimits(posts: LedgerPost[], rulesOf: (version: number) => LedgerRules): void {
  const byDay = new Map<string, LedgerPost[]>();
  for (const p of posts) {
    const key = `${p.author}|${p.createdAt.slice(0, 10)}`;
    byDay.set(key, [...(byDay.get(key) ?? []), p]);
  }
  for (const list of byDay.values()) {
    // The lines are already in (createdAt, post) order within a member.
    list.forEach((p, i) => {
      const over = i >= rulesOf(p.rulesVersion).dailyLimit;
      if (p.overDailyLimit !== over) throw new Error(`post ${p.post}: overDailyLimit ${p.overDailyLimit}`);
    });
  }
}
