import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { check, type Shape } from '../../lib/plain-shape';
import { postRecord, subjectRecord } from './bluesky-events';

// The record shapes as zod schemas, as bluesky-events.ts had them before issue 33 moved the stream's worker thread
// off zod: the plain checks must accept, refuse and word their first problem exactly as these did.
const strongRef = z.object({ uri: z.string().max(8192) });
const facetFeature = z.looseObject({
  $type: z.string().optional(),
  did: z.string().max(2048).optional(),
  tag: z.string().max(640).optional(),
});
const datetime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a datetime');
const zodPost = z.looseObject({
  text: z.string().max(30_000),
  createdAt: datetime,
  facets: z
    .array(z.looseObject({ features: z.array(facetFeature).max(100) }))
    .max(1000)
    .optional(),
  tags: z.array(z.string().max(640)).max(8).optional(),
  reply: z.looseObject({ parent: strongRef, root: strongRef }).optional(),
  embed: z
    .looseObject({
      $type: z.string().optional(),
      record: z.looseObject({ uri: z.string().optional(), record: strongRef.optional() }).optional(),
    })
    .optional(),
});
const zodSubject = z.looseObject({ subject: strongRef, createdAt: datetime });

const TIME = '2026-11-28T06:00:00.000Z';
const URI = 'at://did:plc:bob/app.bsky.feed.post/3k';
const post = {
  text: 'hello #mana',
  createdAt: TIME,
  facets: [{ features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'mana' }] }],
  tags: ['one'],
  reply: { parent: { uri: URI, cid: 'c' }, root: { uri: URI, cid: 'c' } },
  embed: { $type: 'app.bsky.embed.record', record: { uri: URI, cid: 'c' } },
  langs: ['en'],
};
const like = { $type: 'app.bsky.feed.like', subject: { uri: URI, cid: 'c' }, createdAt: TIME };

/** Values that break some shape: each type, empty and too-long strings and arrays, bytes and a class instance. */
const WRONG: unknown[] = [
  undefined,
  null,
  0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  10n,
  'text',
  '',
  'yesterday',
  'x'.repeat(641),
  'x'.repeat(2049),
  'x'.repeat(8193),
  'x'.repeat(30_001),
  [],
  ['a'],
  Array(9).fill('t'),
  Array(101).fill({}),
  Array(1001).fill({ features: [] }),
  [1, 2],
  {},
  { uri: 5 },
  new Uint8Array(2),
  new Date(0),
  () => 1,
];

/** Every path of a value (its own keys, arrays' first item), depth first. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const keys = Array.isArray(value) ? (value.length > 0 ? [0] : []) : Object.keys(value);
  return [at, ...keys.flatMap((key) => paths((value as Record<string, unknown>)[key], [...at, key]))];
}

/** `value` with the value at `path` replaced (a deep copy; the root itself when path is empty). */
function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  copy[key] = replaced(copy[key], rest, by);
  return copy;
}

function compare(shape: Shape<unknown>, schema: z.ZodType, base: object) {
  let refused = 0;
  for (const path of paths(base)) {
    for (const wrong of WRONG) {
      const value = replaced(base, path, wrong);
      const ours = check(shape, value);
      const theirs = schema.safeParse(value);
      const where = `${path.join('.') || '(record)'} = ${typeof wrong === 'string' ? `'${wrong.slice(0, 12)}'` : String(wrong).slice(0, 20)}`;
      expect(ours.ok ? 'ok' : ours.problem, where).toBe(
        theirs.success ? 'ok' : theirs.error.issues[0]?.message,
      );
      if (!ours.ok) refused++;
    }
  }
  return refused;
}

describe("the stream's record shapes (plain checks, not zod)", () => {
  it('accept a full post and a like, and each with its optional parts absent', () => {
    expect(check(postRecord, post)).toEqual({ ok: true, value: post });
    expect(check(postRecord, { text: '', createdAt: TIME }).ok).toBe(true);
    expect(check(subjectRecord, like).ok).toBe(true);
  });

  it('accept, refuse and word the first problem as the zod schemas did, whatever part of a record is wrong', () => {
    // Both must refuse a good share of the variants, or the comparison would prove nothing.
    expect(compare(postRecord, zodPost, post)).toBeGreaterThan(200);
    expect(compare(subjectRecord, zodSubject, like)).toBeGreaterThan(50);
  });

  it('report the first problem in the order zod did: fields in order, an array’s length before its items', () => {
    const twoWrong = { text: 5, createdAt: 'never' };
    expect(check(postRecord, twoWrong)).toEqual({
      ok: false,
      problem: 'Invalid input: expected string, received number',
    });
    const longAndWrong = { text: 'x', createdAt: TIME, tags: [...Array(9).fill('t'), 7] };
    expect(check(postRecord, longAndWrong)).toEqual({
      ok: false,
      problem: 'Too big: expected array to have <=8 items',
    });
    expect(zodPost.safeParse(longAndWrong).error?.issues[0]?.message).toBe(
      'Too big: expected array to have <=8 items',
    );
  });
});
