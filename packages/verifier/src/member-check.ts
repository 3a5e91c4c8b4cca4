import type {
  LedgerInteraction,
  LedgerMember,
  LedgerPost,
  LedgerRecord,
  LedgerReferral,
  LedgerRules,
} from '@manaboard/contract/ledger';
import type { Findings } from './findings';
import { manaOfPost, postsOverDailyLimit, type Counts } from './scoring';

/** A member whose Mana in the ledger is not what the verifier computes from the ledger's own lines and rules. */
export type MemberDifference = {
  author: string;
  handle: string;
  line: number;
  ledger: number;
  recomputed: number;
  /** The lines behind the difference, each with its line number. */
  reasons: string[];
};

const KINDS = { likes: 'like', quotes: 'quote', replies: 'reply', reposts: 'repost' } as const;
type CountKey = keyof typeof KINDS;

type OpenPost = { line: number; post: LedgerPost; records: Counts; authors: Map<string, Set<string>> };

/**
 * One member's block of the ledger, recomputed as it streams by: only the member's post lines are kept (for the
 * daily limit); records are counted per post and forgotten. `close` compares the Mana of each line and of the
 * member with the verifier's own arithmetic.
 */
export class MemberCheck {
  private readonly posts: OpenPost[] = [];
  private current: OpenPost | null = null;
  private bonus = 0;
  private readonly reasons: string[] = [];

  constructor(
    readonly line: number,
    readonly member: LedgerMember,
    private readonly rulesOf: (version: number) => LedgerRules | undefined,
    private readonly findings: Findings,
  ) {}

  addPost(line: number, post: LedgerPost): void {
    this.closePost();
    this.current = {
      line,
      post,
      records: { likes: 0, quotes: 0, replies: 0, reposts: 0 },
      authors: new Map(),
    };
    this.posts.push(this.current);
  }

  addRecord(line: number, record: LedgerRecord): void {
    const open = this.current;
    if (!open) return;
    if (record.post !== open.post.post)
      this.differs(line, `record ${record.uri} names post ${record.post}, under ${open.post.post}`);
    const key = (Object.keys(KINDS) as CountKey[]).find((k) => KINDS[k] === record.kind)!;
    open.records[key] += 1;
    // One like and one repost per account and post: a second one is a duplicate the programme must not count.
    if (record.kind === 'like' || record.kind === 'repost') {
      const seen = open.authors.get(record.kind) ?? new Set<string>();
      if (seen.has(record.author)) {
        this.differs(line, `counts a second ${record.kind} by ${record.author} on ${record.post}`);
      }
      seen.add(record.author);
      open.authors.set(record.kind, seen);
    }
  }

  addReferral(line: number, referral: LedgerReferral): void {
    this.closePost();
    const rules = this.rulesOf(referral.rulesVersion);
    const expected = rules?.referralReward ?? 0;
    if (rules && referral.mana !== expected) {
      this.differs(
        line,
        `referral of ${referral.referee}: Mana ${referral.mana}, the rules give ${expected}`,
      );
    }
    this.bonus += expected;
  }

  addInteraction(line: number, interaction: LedgerInteraction): void {
    this.closePost();
    const rules = this.rulesOf(interaction.rulesVersion);
    const expected = rules?.interactionRewards[interaction.kind] ?? 0;
    if (rules && interaction.mana !== expected) {
      this.differs(
        line,
        `${interaction.kind} of ${interaction.post}: Mana ${interaction.mana}, the rules give ${expected}`,
      );
    }
    this.bonus += expected;
  }

  /** Ends the block: the daily limit over the member's posts, each post's Mana, the member's sum. */
  close(): { recomputed: number; difference: MemberDifference | null } {
    this.closePost();
    const over = postsOverDailyLimit(
      this.posts.map((p) => ({
        post: p.post.post,
        createdAt: p.post.createdAt,
        dailyLimit: this.rulesOf(p.post.rulesVersion)?.dailyLimit ?? Infinity,
      })),
    );
    let sum = this.bonus;
    for (const { line, post, records } of this.posts) {
      const rules = this.rulesOf(post.rulesVersion);
      if (!rules) continue;
      const overLimit = over.has(post.post);
      if (overLimit !== post.overDailyLimit) {
        this.differs(
          line,
          `post ${post.post}: overDailyLimit ${post.overDailyLimit}, the daily limit gives ${overLimit}`,
        );
      }
      if (post.multiplier !== 1 && post.multiplier !== rules.linkedMultiplier) {
        this.differs(
          line,
          `post ${post.post}: multiplier ${post.multiplier}, the rules allow 1 or ${rules.linkedMultiplier}`,
        );
      }
      const counts = sumCounts(records, post.notTraceable);
      const mana = manaOfPost({
        counts,
        weights: rules.weights,
        multiplier: post.multiplier,
        overDailyLimit: overLimit,
        live: post.status === 'live',
      });
      if (mana !== post.mana) {
        this.differs(
          line,
          `post ${post.post}: Mana ${post.mana}, recomputed ${mana} (${describe(counts, post)})`,
        );
      }
      sum += mana;
    }
    const difference =
      sum !== this.member.mana || this.reasons.length > 0
        ? {
            author: this.member.author,
            handle: this.member.handle,
            line: this.line,
            ledger: this.member.mana,
            recomputed: sum,
            reasons: this.reasons,
          }
        : null;
    return { recomputed: sum, difference };
  }

  /** Post lines so far (for the end line's sums). */
  get postCount(): number {
    return this.posts.length;
  }

  private closePost(): void {
    const open = this.current;
    if (!open) return;
    this.current = null;
    for (const key of Object.keys(KINDS) as CountKey[]) {
      const traced = open.records[key] + open.post.notTraceable[key];
      if (open.post.counts[key] !== traced) {
        this.differs(
          open.line,
          `post ${open.post.post}: counts ${open.post.counts[key]} ${key}, but ${open.records[key]} record lines + ${open.post.notTraceable[key]} not traceable`,
        );
      }
    }
  }

  private differs(line: number, message: string): void {
    this.findings.add('lines', line, message);
    if (this.reasons.length < 20) this.reasons.push(`line ${line}: ${message}`);
  }
}

function sumCounts(records: Counts, notTraceable: Counts): Counts {
  return {
    likes: records.likes + notTraceable.likes,
    quotes: records.quotes + notTraceable.quotes,
    replies: records.replies + notTraceable.replies,
    reposts: records.reposts + notTraceable.reposts,
  };
}

function describe(counts: Counts, post: LedgerPost): string {
  const parts = [
    `${counts.likes} likes, ${counts.replies} replies, ${counts.reposts} reposts, ${counts.quotes} quotes`,
  ];
  parts.push(`×${post.multiplier}`);
  if (post.status !== 'live') parts.push(post.status);
  return parts.join(', ');
}
