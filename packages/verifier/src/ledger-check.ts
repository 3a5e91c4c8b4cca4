import { createHash } from 'node:crypto';
import {
  canonicalJson,
  ledgerLineSchema,
  type LedgerEnd,
  type LedgerHeader,
  type LedgerLine,
  type LedgerRules,
} from '@manaboard/contract/ledger';
import { checkLineFacts } from './line-facts';
import type { Findings } from './findings';
import type { RawLine } from './line-splitter';
import { MemberCheck, type MemberDifference } from './member-check';
import { codeUnitOrder, idOrder, ranksOf, type Standing } from './scoring';

type Type = LedgerLine['type'];

/** Which line types may follow each (docs/ledger-format.md, "Lines, in order"). */
const NEXT: Record<Type | 'start', readonly Type[]> = {
  start: ['header'],
  header: ['member', 'end'],
  member: ['post', 'referral', 'interaction', 'member', 'end'],
  post: ['record', 'post', 'referral', 'interaction', 'member', 'end'],
  record: ['record', 'post', 'referral', 'interaction', 'member', 'end'],
  referral: ['referral', 'interaction', 'member', 'end'],
  interaction: ['interaction', 'member', 'end'],
  end: [],
};

export type LedgerSummary = {
  header: LedgerHeader | null;
  end: LedgerEnd | null;
  lines: number;
  members: number;
  posts: number;
  records: number;
  /** Records the ledger names with an address (record lines, and interaction lines with a record). */
  addressed: number;
  notTraceable: number;
  differences: MemberDifference[];
  differingMembers: number;
  /** Each member's handle and how many addressed records its block names (for --member and the progress). */
  perMember: Map<string, { handle: string; addressed: number }>;
};

/**
 * Reads a ledger line by line (streamed: only the current member's posts are held) and checks that each line
 * parses with the contract's schemas, is canonical, comes where and in the order the format says, and that the
 * Mana, ranks and end line follow from the lines and the header's rules.
 */
export class LedgerCheck {
  private last: Type | 'start' = 'start';
  private header: LedgerHeader | null = null;
  private rules = new Map<number, LedgerRules>();
  private member: MemberCheck | null = null;
  private orderKey: string[] | null = null;
  private recordKey: string[] | null = null;
  private readonly perMember = new Map<string, { handle: string; addressed: number }>();
  private readonly standings: Array<Standing & { rank: number; line: number }> = [];
  private readonly differences: MemberDifference[] = [];
  private differing = 0;
  private sums = { mana: 0, members: 0, posts: 0, records: 0, notTraceable: 0, addressed: 0 };
  private end: LedgerEnd | null = null;
  private lines = 0;

  constructor(private readonly findings: Findings) {}

  line(raw: RawLine): void {
    this.lines = raw.number;
    const text = raw.text;
    if ('problem' in raw) {
      if (raw.problem !== 'no final newline') {
        this.findings.add(
          'format',
          raw.number,
          raw.problem === 'too long' ? 'the line is too long' : 'the line is not UTF-8',
        );
        return;
      }
      this.findings.add(
        'format',
        raw.number,
        'the last line has no final newline (the file may be truncated)',
      );
    }
    if (text === undefined) return;
    const parsed = this.parse(raw.number, text);
    if (parsed) this.accept(raw.number, parsed);
  }

  finish(): LedgerSummary {
    this.closeMember();
    if (this.last === 'start') this.findings.add('format', null, 'the ledger is empty');
    else if (!this.end)
      this.findings.add('format', null, 'the ledger ends without its end line (truncated?)');
    const ranks = ranksOf(this.standings);
    for (const s of this.standings) {
      const rank = ranks.get(s.author);
      if (rank !== s.rank)
        this.findings.add('ranks', s.line, `${s.author}: rank ${s.rank}, recomputed ${rank}`);
    }
    if (this.end) this.checkEnd(this.end);
    const { members, posts, records, notTraceable, addressed } = this.sums;
    return {
      header: this.header,
      end: this.end,
      lines: this.lines,
      members,
      posts,
      records,
      addressed,
      notTraceable,
      differences: this.differences,
      differingMembers: this.differing,
      perMember: this.perMember,
    };
  }

  private parse(number: number, text: string): LedgerLine | null {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.findings.add('format', number, 'is not JSON');
      return null;
    }
    const parsed = ledgerLineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      this.findings.add('format', number, `is not a ledger line${where} (${issue?.message ?? 'invalid'})`);
      return null;
    }
    if (canonicalJson(parsed.data) !== text) this.findings.add('format', number, 'is not canonical JSON');
    return parsed.data;
  }

  private accept(number: number, line: LedgerLine): void {
    if (!NEXT[this.last].includes(line.type)) {
      const after = this.last === 'start' ? 'as the first line' : `after a ${this.last} line`;
      this.findings.add('format', number, `a ${line.type} line cannot come ${after}`);
      if (line.type === 'header' || this.last === 'start' || this.last === 'end') return;
    }
    this.last = line.type;
    if (this.header && line.type !== 'header' && line.type !== 'end') {
      checkLineFacts(
        line,
        number,
        this.header,
        this.rules,
        this.member?.member.author ?? null,
        this.findings,
      );
    }
    switch (line.type) {
      case 'header':
        return this.acceptHeader(number, line);
      case 'member':
        this.closeMember();
        if (this.perMember.has(line.author))
          this.findings.add('format', number, `${line.author} has a second member line`);
        this.perMember.set(line.author, { handle: line.handle, addressed: 0 });
        if (line.rank !== this.standings.length + 1) {
          this.findings.add(
            'format',
            number,
            `rank ${line.rank} comes where rank ${this.standings.length + 1} belongs`,
          );
        }
        this.member = new MemberCheck(number, line, (v) => this.rules.get(v), this.findings);
        this.orderKey = null;
        this.recordKey = null;
        this.sums.members += 1;
        this.sums.mana += line.mana;
        return;
      case 'post':
        this.inOrder(number, [line.createdAt, line.post], 'post', idOrder);
        this.recordKey = null;
        this.sums.posts += 1;
        for (const n of Object.values(line.notTraceable)) this.sums.notTraceable += n;
        return this.member?.addPost(number, line);
      case 'record':
        this.sums.records += 1;
        this.addressed();
        if (this.recordKey && compareKeys(this.recordKey, [line.kind, line.uri], codeUnitOrder) >= 0) {
          this.findings.add('format', number, 'record line out of order (by kind, then uri) or repeated');
        }
        this.recordKey = [line.kind, line.uri];
        return this.member?.addRecord(number, line);
      case 'referral':
        this.inOrder(number, [line.at, line.referee], 'referral', codeUnitOrder);
        return this.member?.addReferral(number, line);
      case 'interaction':
        if (line.record !== null) this.addressed();
        this.inOrder(number, [line.at, line.post, line.kind], 'interaction', codeUnitOrder);
        return this.member?.addInteraction(number, line);
      case 'end':
        this.end = line;
    }
  }

  private acceptHeader(number: number, header: LedgerHeader): void {
    this.header = header;
    let previous = 0;
    for (const { version, rules, hash } of header.rules) {
      if (version <= previous)
        this.findings.add('format', number, `rules versions are not ascending (${version})`);
      previous = version;
      const actual = `sha256:${createHash('sha256').update(canonicalJson(rules)).digest('hex')}`;
      if (actual !== hash)
        this.findings.add('lines', number, `rules version ${version}: its hash is not that of its rules`);
      this.rules.set(version, rules);
    }
    const from = weekStart(header.week);
    if (
      from &&
      (header.from !== from.toISOString() ||
        header.to !== new Date(from.getTime() + 7 * 86_400_000).toISOString())
    ) {
      this.findings.add('lines', number, `from/to are not the bounds of ${header.week}`);
    }
  }

  /** Lines of one kind within a member come in strictly ascending order (times as strings, ids by `ids`). */
  private inOrder(number: number, key: string[], what: string, ids: IdOrder): void {
    const full = [what, ...key];
    if (this.orderKey?.[0] === what && compareKeys(this.orderKey.slice(1), key, ids) >= 0) {
      this.findings.add('format', number, `${what} line out of order or repeated`);
    }
    this.orderKey = full;
  }

  private addressed(): void {
    this.sums.addressed += 1;
    const author = this.member?.member.author;
    const entry = author === undefined ? undefined : this.perMember.get(author);
    if (entry) entry.addressed += 1;
  }

  private closeMember(): void {
    if (!this.member) return;
    const { recomputed, difference } = this.member.close();
    const { author, firstTrackedAt, rank } = this.member.member;
    this.standings.push({ author, mana: recomputed, firstTrackedAt, rank, line: this.member.line });
    if (difference) {
      this.differing += 1;
      if (this.differences.length < 200) this.differences.push(difference);
    }
    this.member = null;
  }

  private checkEnd(end: LedgerEnd): void {
    const { mana, members, posts, records, notTraceable } = this.sums;
    const want = { mana, members, posts, records, notTraceable };
    for (const key of Object.keys(want) as Array<keyof typeof want>) {
      if (end[key] !== want[key])
        this.findings.add(
          'totals',
          this.lines,
          `end line: ${key} ${end[key]}, the lines sum to ${want[key]}`,
        );
    }
  }
}

type IdOrder = (a: string, b: string) => number;

/**
 * Compares order keys part by part: the first (a time, or a record's kind) by code units, the rest by `ids`.
 * Post ids order as compareIds (shorter first, so X's '9' before '10'); a record's uri, a referee and an
 * interaction's post (and kind) by plain code units, as the server's SQL writes them (`collate "C"`): with
 * compareIds a did:web beside did:plc ids would fail an honest ledger.
 */
function compareKeys(a: string[], b: string[], ids: IdOrder): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    const order = i > 0 ? ids(x, y) : codeUnitOrder(x, y);
    if (order !== 0) return order;
  }
  return 0;
}

/** Monday 00:00 UTC of an ISO week `YYYY-Www`. */
export function weekStart(week: string): Date | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) return null;
  const year = Number(match[1]);
  const jan4 = Date.UTC(year, 0, 4);
  const jan4Weekday = (new Date(jan4).getUTCDay() + 6) % 7;
  return new Date(jan4 - jan4Weekday * 86_400_000 + (Number(match[2]) - 1) * 7 * 86_400_000);
}
