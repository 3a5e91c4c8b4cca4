import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson, canonicalLine, type LedgerLine } from '@manaboard/contract/ledger';
import { Findings } from '../src/findings';
import { LedgerCheck } from '../src/ledger-check';
import { lineCap } from '../src/ledger-download';
import { LineSplitter } from '../src/line-splitter';
import { FAKE_LIKE_RKEY, tamperLedger } from './ledger-tamper';
import { isLedgerDocument, startTamperProxy } from './tamper-proxy';

const rules = {
  dailyLimit: 5,
  hashtags: ['ManaBoard'],
  interactionRewards: { like: 1, reply: 3, repost: 2 },
  keywords: [],
  linkedMultiplier: 3,
  officialHandles: ['manaboard.test'],
  referralReward: 10,
  refreshWindowDays: 7,
  settleAfterHours: 24,
  settleByHours: 72,
  weights: { like: 1, quote: 3, reply: 2, repost: 2 },
};
const hashOf = (value: unknown) =>
  `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
const ada = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa';
const bob = 'did:plc:bbbbbbbbbbbbbbbbbbbbbbbb';
const cy = 'did:plc:cccccccccccccccccccccccc';
const post = `at://${ada}/app.bsky.feed.post/3p1`;
const record = (who: string, kind: 'like' | 'repost', rkey: string, cid: string) => ({
  author: who,
  cid,
  createdAt: '2026-11-24T10:05:00.000Z',
  kind,
  post,
  type: 'record' as const,
  uri: `at://${who}/app.bsky.feed.${kind}/${rkey}`,
});
const zero = { likes: 0, quotes: 0, replies: 0, reposts: 0 };

/** A small honest week: Ada's post with Bob's like and repost (1·1 + 2·1 = 3 Mana); Bob and Cy with no post. */
function honest(state: 'open' | 'closed'): string {
  const lines: LedgerLine[] = [
    {
      closedAt: state === 'closed' ? '2026-12-08T00:00:00.000Z' : null,
      edition: 1,
      format: 'manaboard-ledger/1',
      from: '2026-11-23T00:00:00.000Z',
      network: 'bluesky',
      rules: [{ hash: hashOf(rules), rules, version: 1 }],
      state,
      to: '2026-11-30T00:00:00.000Z',
      type: 'header',
      week: '2026-W48',
    },
    {
      author: ada,
      firstTrackedAt: '2026-11-24T10:00:00.000Z',
      handle: 'ada.test',
      mana: 3,
      rank: 1,
      type: 'member',
    },
    {
      author: ada,
      counts: { ...zero, likes: 1, reposts: 1 },
      createdAt: '2026-11-24T10:00:00.000Z',
      mana: 3,
      multiplier: 1,
      notTraceable: zero,
      overDailyLimit: false,
      post,
      rulesVersion: 1,
      status: 'live',
      type: 'post',
    },
    record(bob, 'like', '3l1', 'bafycid1'),
    record(bob, 'repost', '3r1', 'bafycid2'),
    {
      author: bob,
      firstTrackedAt: '2026-11-24T11:00:00.000Z',
      handle: 'bob.test',
      mana: 0,
      rank: 2,
      type: 'member',
    },
    {
      author: cy,
      firstTrackedAt: '2026-11-24T12:00:00.000Z',
      handle: 'cy.test',
      mana: 0,
      rank: 3,
      type: 'member',
    },
    { mana: 3, members: 3, notTraceable: 0, posts: 1, records: 2, type: 'end' },
  ];
  return lines.map(canonicalLine).join('');
}

/** What the verifier's own ledger check finds in a text (no records fetched: those need a network). */
function check(text: string) {
  const findings = new Findings();
  const checker = new LedgerCheck(findings);
  const splitter = new LineSplitter(lineCap, (line) => checker.line(line));
  splitter.push(Buffer.from(text));
  splitter.end();
  const summary = checker.finish();
  const messages = (['format', 'lines', 'totals', 'ranks'] as const).flatMap((k) =>
    findings.list(k).map((f) => `${k}: ${f.line ?? '-'}: ${f.message}`),
  );
  return { messages, differences: summary.differences };
}

describe('tamperLedger', () => {
  it('leaves an honest ledger for the verifier to pass, so what it finds below is the tampering', () => {
    expect(check(honest('open'))).toEqual({ messages: [], differences: [] });
  });

  it('fake-like: adds a like line in order and raises the counts and sums to match', () => {
    const tampered = tamperLedger(honest('open'), 'fake-like');
    const lines = tampered.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LedgerLine);
    // By Cy, who has not liked the post (Bob has: one like per account), in the records' order (kind, then uri).
    expect(lines.slice(3, 6).map((l) => (l as { uri: string }).uri)).toEqual([
      `at://${bob}/app.bsky.feed.like/3l1`,
      `at://${cy}/app.bsky.feed.like/${FAKE_LIKE_RKEY}`,
      `at://${bob}/app.bsky.feed.repost/3r1`,
    ]);
    expect(lines[4]).toMatchObject({ kind: 'like', author: cy, post, type: 'record' });
    expect(lines[2]).toMatchObject({ counts: { likes: 2, reposts: 1 }, mana: 4 });
    expect(lines[1]).toMatchObject({ mana: 4 });
    expect(lines.at(-1)).toMatchObject({ mana: 4, records: 3 });
    expect(tampered.note).toMatch(/^fake-like: added a like by @cy\.test that does not exist, .* on line 5 /);
    // Every line still follows: only the record's absence on its author's server can tell.
    expect(check(tampered.text)).toEqual({ messages: [], differences: [] });
  });

  it('weight: raises a like weight and recomputes the rules hash, so the recomputed Mana differs', () => {
    const tampered = tamperLedger(honest('open'), 'weight');
    const header = JSON.parse(tampered.text.split('\n')[0]!) as Extract<LedgerLine, { type: 'header' }>;
    expect(header.rules[0]!.rules.weights.like).toBe(2);
    expect(header.rules[0]!.hash).toBe(hashOf(header.rules[0]!.rules));
    const result = check(tampered.text);
    // The hash holds: what differs is the Mana, recomputed with the weight the header states.
    expect(result.messages).toEqual([expect.stringMatching(/^lines: 3: /)]);
    expect(result.differences).toMatchObject([{ handle: 'ada.test', ledger: 3, recomputed: 4 }]);
  });

  it('total: alters the first member and the end line by the same amount', () => {
    const tampered = tamperLedger(honest('open'), 'total');
    expect(tampered.note).toBe("total: @ada.test's Mana 3 → 10, and the end line's +7");
    expect(check(tampered.text).differences).toMatchObject([
      { handle: 'ada.test', ledger: 10, recomputed: 3 },
    ]);
  });

  it("cid: gives one record another record's CID", () => {
    const tampered = tamperLedger(honest('open'), 'cid');
    const lines = tampered.text.split('\n');
    expect(JSON.parse(lines[3]!)).toMatchObject({
      cid: 'bafycid2',
      uri: `at://${bob}/app.bsky.feed.like/3l1`,
    });
    expect(tampered.note).toMatch(/line 4: CID bafycid1 → bafycid2/);
  });

  it("hash: changes a closed edition's bytes, and leaves an open week alone, saying it needs a closed one", () => {
    const closed = honest('closed');
    const tampered = tamperLedger(closed, 'hash');
    expect(tampered.changed).toBe(true);
    expect(tampered.text).not.toBe(closed);
    expect(tampered.text).toContain('"handle":"ada.test.evil"');

    const open = tamperLedger(honest('open'), 'hash');
    expect(open).toMatchObject({ changed: false, text: honest('open') });
    expect(open.note).toMatch(/needs a closed week .*verify\.network\.test\.ts/);
  });
});

describe('the tamper proxy', () => {
  const origin = http.createServer((req, res) => {
    if (req.url === '/api/ledger/2026-W48') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
      res.end(honest('open'));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url }));
    }
  });
  afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

  it('rewrites the ledger documents only, and passes the rest through', async () => {
    expect(isLedgerDocument('/api/ledger/2026-W48')).toBe(true);
    expect(isLedgerDocument('/api/ledger/2026-W48/2?x=1')).toBe(true);
    expect(isLedgerDocument('/api/ledger')).toBe(false);
    expect(isLedgerDocument('/api/ledger/2026-W48/proof?uri=at://x')).toBe(false);

    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const port = (origin.address() as { port: number }).port;
    const notes: string[] = [];
    const proxy = await startTamperProxy({
      origin: `http://127.0.0.1:${port}`,
      tamperCase: 'total',
      port: 0,
      log: (line) => notes.push(line),
    });
    try {
      const ledger = await fetch(`${proxy.url}/api/ledger/2026-W48`);
      expect(await ledger.text()).toBe(tamperLedger(honest('open'), 'total').text);
      expect(notes).toEqual(["/api/ledger/2026-W48: total: @ada.test's Mana 3 → 10, and the end line's +7"]);
      const index = await fetch(`${proxy.url}/api/ledger`);
      expect(await index.json()).toEqual({ path: '/api/ledger' });
    } finally {
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    }
  });
});
