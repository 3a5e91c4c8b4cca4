import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalLine, ledgerRecordKinds } from '@manaboard/contract/ledger';
import { recordLine } from './ledger-encode';

describe('record lines', () => {
  it('are written exactly as the contract encodes them, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.record({
          id: fc.string({ minLength: 1, unit: 'binary' }),
          kind: fc.constantFrom(...ledgerRecordKinds),
          author: fc.string({ minLength: 1 }),
          cid: fc.option(fc.string({ minLength: 1 }), { nil: null }),
          createdAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        }),
        (post, r) => {
          const expected = canonicalLine({
            author: r.author,
            cid: r.cid,
            createdAt: r.createdAt,
            kind: r.kind,
            post,
            type: 'record',
            uri: r.id,
          });
          expect(recordLine(post, r)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuse a kind the format does not know', () => {
    expect(() =>
      recordLine('p', { id: 'x', kind: 'follow' as never, author: 'a', cid: null, createdAt: '' }),
    ).toThrow(/unknown kind/);
  });
});
