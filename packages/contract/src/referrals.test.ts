import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authStartWithHandleRequestSchema,
  displayHandle,
  HANDLE_PATTERN,
  normaliseHandle,
} from './referrals';

const handleChar = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'.split(''),
);
const handle = fc.string({ unit: handleChar, minLength: 1, maxLength: 15 });
const space = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000'), maxLength: 4 });

/** Characters that look like handle characters or like @ but are not ASCII (full-width, Cyrillic, Greek…). */
const lookAlikes: Record<string, string> = {
  a: 'а', // Cyrillic a
  e: 'е', // Cyrillic ie
  o: 'ο', // Greek omicron
  p: 'р', // Cyrillic er
  c: 'с', // Cyrillic es
  x: 'х', // Cyrillic ha
  A: 'Ａ', // full-width
  '0': '０',
  _: '＿',
  '1': 'ⅼ', // small roman numeral fifty
};
const lookAlikeHandle = fc
  .tuple(handle, fc.constantFrom(...Object.entries(lookAlikes)), fc.nat())
  .map(([h, [, fake], at]) => {
    // At most 15 characters in all, the look-alike always among them.
    const base = h.slice(0, 14);
    const i = at % (base.length + 1);
    return base.slice(0, i) + fake + base.slice(i);
  });

describe('handle normalisation', () => {
  it('drops surrounding whitespace and one leading @, keeping the handle itself', () => {
    fc.assert(
      fc.property(handle, space, space, fc.boolean(), space, (h, before, after, at, gap) => {
        const typed = `${before}${at ? `@${gap}` : ''}${h}${after}`;
        expect(normaliseHandle(typed)).toBe(h);
        expect(HANDLE_PATTERN.test(normaliseHandle(typed))).toBe(true);
      }),
    );
  });

  it('keeps case exactly: it does not fold it (the server compares handles case-insensitively)', () => {
    fc.assert(
      fc.property(handle, space, fc.boolean(), (h, pad, at) => {
        for (const typed of [h.toUpperCase(), h.toLowerCase(), h]) {
          // Whatever casing was typed comes back as typed, not lower-cased or matched to a stored handle.
          expect(normaliseHandle(`${pad}${at ? '@' : ''}${typed}${pad}`)).toBe(typed);
        }
        expect(displayHandle(h)).toBe(`@${h}`);
        expect(displayHandle(`${pad}@${h}`)).toBe(`@${h}`);
      }),
    );
    // So two casings of one handle normalise to different strings unless compared case-insensitively.
    expect(normaliseHandle('@ALICE')).not.toBe(normaliseHandle('alice'));
  });

  it('drops only one leading @ (a second one stays and fails the pattern)', () => {
    fc.assert(
      fc.property(handle, (h) => {
        expect(normaliseHandle(`@@${h}`)).toBe(`@${h}`);
        expect(HANDLE_PATTERN.test(normaliseHandle(`@@${h}`))).toBe(false);
      }),
    );
  });

  it('does not fold unicode look-alikes: they never pass as a handle', () => {
    fc.assert(
      fc.property(lookAlikeHandle, space, (fake, pad) => {
        expect(HANDLE_PATTERN.test(normaliseHandle(`${pad}${fake}`))).toBe(false);
        expect(HANDLE_PATTERN.test(normaliseHandle(`${pad}@${fake}`))).toBe(false);
      }),
    );
    // A full-width or small @ is not an @.
    for (const fakeAt of ['＠', '﹫'])
      expect(HANDLE_PATTERN.test(normaliseHandle(`${fakeAt}mana`))).toBe(false);
  });

  it('gives an empty handle for blank input and never throws on any text', () => {
    fc.assert(
      fc.property(space, fc.boolean(), (pad, at) => {
        expect(normaliseHandle(`${pad}${at ? '@' : ''}${pad}`)).toBe('');
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const result = normaliseHandle(text);
        expect(result.length).toBeLessThanOrEqual(text.length);
        expect(result).toBe(result.trim());
      }),
    );
  });
});

describe('domain handles and the account a member names to link', () => {
  it('accepts domain handles as referrers, and still no junk', () => {
    for (const good of ['alice.test', 'alice.bsky.social', 'x-1.example.co.uk', 'mana_fan'])
      expect(HANDLE_PATTERN.test(good)).toBe(true);
    for (const bad of [
      'alice..test',
      '.alice.test',
      'alice.test.',
      'alice.1test',
      'a_b.test',
      'аlice.test',
      'a b.test',
    ])
      expect(HANDLE_PATTERN.test(bad)).toBe(false);
  });

  it('takes a handle (one @ and spaces dropped) or a DID, and says what is wrong otherwise', () => {
    const parse = (handle: string) =>
      authStartWithHandleRequestSchema.safeParse({ redirectAfter: 'http://localhost/auth/callback', handle });
    expect(parse(' @alice.test ').data?.handle).toBe('alice.test');
    expect(parse('did:plc:abc234').data?.handle).toBe('did:plc:abc234');
    expect(parse('').error?.issues[0]?.message).toMatch(/Type your handle/);
    for (const bad of ['alice', 'not a handle', 'https://evil.example/', 'did:plc:', '@@alice.test'])
      expect(parse(bad).error?.issues[0]?.message).toMatch(/not a handle/);
    expect(parse('x'.repeat(3000)).success).toBe(false);
  });
});
