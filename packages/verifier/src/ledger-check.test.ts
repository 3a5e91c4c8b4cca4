import { describe, expect, it } from 'vitest';
import type { LedgerLine } from '@manaboard/contract/ledger';
import { Findings } from './findings';
import { LedgerCheck } from './ledger-check';
import { lineCap } from './ledger-download';
import { LineSplitter } from './line-splitter';
import { buildLedgerLines, defaultRules, encodeLedger, type WorldMember } from './test/ledger-builder';

const alice = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa';
const bob = 'did:plc:bbbbbbbbbbbbbbbbbbbbbbbb';
const carol = 'did:plc:cccccccccccccccccccccccc';
const post = (did: string, rkey: string) => `at://${did}/app.bsky.feed.post/${rkey}`;
const like = (did: string, rkey: string) => ({
  author: did,
  cid: `bafyrei${rkey}`,
  createdAt: '2026-11-24T12:00:00.000Z',
  kind: 'like' as const,
  uri: `at://${did}/app.bsky.feed.like/${rkey}`,
});

function world(): WorldMember[] {
  const day = '2026-11-24T';
  return [
    {
      author: alice,
      handle: 'alice.test',
      firstTrackedAt: '2026-11-01T00:00:00.000Z',
      posts: [
        {
          post: post(alice, 'p1'),
          createdAt: `${day}09:00:00.000Z`,
          multiplier: 3,
          records: [like(bob, 'l1'), like(carol, 'l2')],
        },
        { post: post(alice, 'p2'), createdAt: `${day}10:00:00.000Z`, notTraceable: { likes: 2, reposts: 1 } },
        // Six posts on one day with a limit of 5: the last is over it.
        ...[3, 4, 5, 6, 7].map((n) => ({
          post: post(alice, `p${n}`),
          createdAt: `${day}1${n}:00:00.000Z`,
          records: [like(bob, `x${n}`)],
        })),
      ],
      referrals: [{ at: '2026-11-25T08:00:00.000Z', referee: carol }],
    },
    {
      author: bob,
      handle: 'bob.test',
      firstTrackedAt: '2026-11-20T00:00:00.000Z',
      posts: [
        {
          post: post(bob, 'q1'),
          createdAt: `${day}09:30:00.000Z`,
          status: 'deleted',
          records: [like(alice, 'm1')],
        },
      ],
      interactions: [
        {
          at: '2026-11-26T00:00:00.000Z',
          kind: 'like',
          post: post(carol, 'official'),
          record: `at://${bob}/app.bsky.feed.like/i1`,
          cid: 'bafyreii1',
        },
      ],
    },
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reaches into any line's fields to tamper
type Loose = Record<string, any>;

function check(text: string | Buffer) {
  const findings = new Findings();
  const checker = new LedgerCheck(findings);
  const splitter = new LineSplitter(lineCap, (line) => checker.line(line));
  const bytes = Buffer.from(text);
  // Odd chunk sizes: lines cross chunk boundaries as they do off the network.
  for (let at = 0; at < bytes.length; at += 37) splitter.push(bytes.subarray(at, at + 37));
  splitter.end();
  const summary = checker.finish();
  const all = (['format', 'lines', 'totals', 'ranks'] as const).flatMap((k) =>
    findings.list(k).map((f) => `${k}: ${f.line ?? '-'}: ${f.message}`),
  );
  return { summary, all };
}

/** A copy of the lines with one changed (tampering: any field, whatever its line's type). */
function edit(lines: LedgerLine[], index: number, change: (line: Loose) => void): LedgerLine[] {
  const copy = structuredClone(lines);
  change(copy[index] as unknown as Loose);
  return copy;
}

describe('reading a ledger', () => {
  const honest = buildLedgerLines({ members: world() });

  it('finds nothing wrong in an honest ledger, and counts what it holds', () => {
    const { summary, all } = check(encodeLedger(honest));
    expect(all).toEqual([]);
    expect(summary.differences).toEqual([]);
    expect(summary).toMatchObject({ members: 2, posts: 8, records: 8, addressed: 9, notTraceable: 3 });
    expect(summary.perMember.get(alice)).toEqual({ handle: 'alice.test', addressed: 7 });
  });

  it('names a changed weight: the rules hash, and every member whose Mana it moves', () => {
    const lines = edit(honest, 0, (h) => (h.rules[0].rules.weights.like = 2));
    const { summary, all } = check(encodeLedger(lines));
    expect(all).toContain('lines: 1: rules version 1: its hash is not that of its rules');
    expect(summary.differences.map((d) => d.handle)).toEqual(['alice.test']);
    expect(summary.differences[0]!.reasons[0]).toMatch(/post at:\/\/.*p1: Mana 6, recomputed 12/);
  });

  it('names an altered member total, and an end line that does not sum the lines', () => {
    const member = honest.findIndex((l) => l.type === 'member');
    const { summary } = check(encodeLedger(edit(honest, member, (m) => (m.mana += 10))));
    expect(summary.differences[0]).toMatchObject({
      handle: 'alice.test',
      ledger: summary.differences[0]!.recomputed + 10,
    });
    const { all } = check(encodeLedger(edit(honest, honest.length - 1, (e) => (e.mana += 1))));
    expect(all.some((f) => /^totals: .*end line: mana/.test(f))).toBe(true);
  });

  it('names counts that the records do not back, a wrong daily limit flag, and a wrong reward', () => {
    const p1 = honest.findIndex((l) => l.type === 'post');
    const over = honest.findIndex((l) => l.type === 'post' && l.overDailyLimit);
    const referral = honest.findIndex((l) => l.type === 'referral');
    let lines = edit(honest, p1, (p) => (p.counts.likes += 1));
    lines = edit(lines, over, (p) => (p.overDailyLimit = false));
    lines = edit(lines, referral, (r) => (r.mana = 70));
    const { all } = check(encodeLedger(lines));
    expect(all.filter((f) => f.startsWith('lines'))).toEqual([
      `lines: ${p1 + 1}: post ${post(alice, 'p1')}: counts 3 likes, but 2 record lines + 0 not traceable`,
      `lines: ${referral + 1}: referral of ${carol}: Mana 70, the rules give 50`,
      `lines: ${over + 1}: post ${post(alice, 'p6')}: overDailyLimit false, the daily limit gives true`,
    ]);
  });

  it('rejects a line that is not canonical, not JSON, not a ledger line, or out of order', () => {
    const text = encodeLedger(honest).split('\n');
    const at = (pattern: string) => text.findIndex((t) => t.includes(pattern));
    text[1] = text[1]!.replace('"author":', '"author" :');
    const bobsPost = at(`"post":"${post(bob, 'q1')}","rulesVersion"`);
    text[bobsPost] = '{"type":"post"';
    const p3Record = at('app.bsky.feed.like/x3');
    text[p3Record] = JSON.stringify({ ...JSON.parse(text[p3Record]!), extra: 1 });
    const l1 = at('app.bsky.feed.like/l1');
    [text[l1], text[l1 + 1]] = [text[l1 + 1]!, text[l1]!];
    const { all } = check(text.join('\n'));
    expect(all.filter((f) => f.startsWith('format'))).toEqual([
      'format: 2: is not canonical JSON',
      `format: ${l1 + 2}: record line out of order (by kind, then uri) or repeated`,
      expect.stringMatching(new RegExp(`^format: ${p3Record + 1}: is not a ledger line`)),
      `format: ${bobsPost + 1}: is not JSON`,
      // Its record then follows no post.
      `format: ${bobsPost + 2}: a record line cannot come after a member line`,
    ]);
  });

  it('accepts ids of different lengths in plain code-unit order, as the server writes them', () => {
    // did:web ids are shorter than did:plc ones but sort after them by code units ('p' < 'w'): compareIds
    // (shorter first) would put them first, so this ledger fails if the verifier used it for these ids.
    const web = 'did:web:dave.test';
    const at = '2026-11-26T00:00:00.000Z';
    const members: WorldMember[] = [
      {
        author: alice,
        handle: 'alice.test',
        firstTrackedAt: '2026-11-01T00:00:00.000Z',
        posts: [
          {
            post: post(alice, 'p1'),
            createdAt: '2026-11-24T09:00:00.000Z',
            records: [like(web, 'w1'), like(bob, '3kabcdefghij2'), like(carol, 'not-a-tid')],
          },
        ],
        referrals: [
          { at, referee: web },
          { at, referee: carol },
        ],
        interactions: [
          { at, kind: 'like', post: post(web, 'o1'), record: null, cid: null },
          { at, kind: 'like', post: post(carol, 'o2'), record: null, cid: null },
        ],
      },
    ];
    const lines = buildLedgerLines({ members });
    const order = (type: string, field: string) =>
      lines.filter((l) => l.type === type).map((l) => (l as unknown as Loose)[field] as string);
    // The builder sorts with the server's comparators (ledger-encode.ts); the did:web ids come last.
    expect(order('record', 'uri').map((u) => u.split('/')[2])).toEqual([bob, carol, web]);
    expect(order('referral', 'referee')).toEqual([carol, web]);
    expect(order('interaction', 'post')).toEqual([post(carol, 'o2'), post(web, 'o1')]);
    const { all, summary } = check(encodeLedger(lines));
    expect(all).toEqual([]);
    expect(summary.records).toBe(3);

    // The shorter-first order is now the wrong one, for each kind of line.
    const text = encodeLedger(lines).split('\n');
    const swap = (pattern: string) => {
      const i = text.findIndex((t) => t.includes(pattern));
      [text[i], text[i + 1]] = [text[i + 1]!, text[i]!];
      return i + 1;
    };
    const record = swap(`"uri":"at://${carol}`);
    const referral = swap(`"referee":"${carol}"`);
    const interaction = swap(`"post":"${post(carol, 'o2')}"`);
    expect(check(text.join('\n')).all).toEqual([
      `format: ${record + 1}: record line out of order (by kind, then uri) or repeated`,
      `format: ${referral + 1}: referral line out of order or repeated`,
      `format: ${interaction + 1}: interaction line out of order or repeated`,
    ]);
  });

  it('says a ledger cut short is truncated, and an empty one empty', () => {
    const text = encodeLedger(honest);
    const { all } = check(text.slice(0, text.length - 30));
    expect(all).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/the last line has no final newline/),
        'format: -: the ledger ends without its end line (truncated?)',
      ]),
    );
    expect(check('').all).toEqual(['format: -: the ledger is empty']);
  });

  it('skips a line over the cap without holding it, and goes on', () => {
    const text = encodeLedger(honest).split('\n');
    text.splice(2, 0, `"${'x'.repeat(70_000)}"`);
    const { all, summary } = check(text.join('\n'));
    expect(all[0]).toBe('format: 3: the line is too long');
    expect(summary.members).toBe(2);
  });

  it('names a rank out of place and a line of another member inside a block', () => {
    const second = honest.findLastIndex((l) => l.type === 'member');
    const { all } = check(encodeLedger(edit(honest, second, (m) => (m.rank = 3))));
    expect(all).toContain(`format: ${second + 1}: rank 3 comes where rank 2 belongs`);
    expect(all).toContain(`ranks: ${second + 1}: ${bob}: rank 3, recomputed 2`);
    const rules = { ...defaultRules };
    expect(rules.dailyLimit).toBe(5);
  });
});
