import { describe, expect, it } from 'vitest';
import { enUsNumber, graphemeCount } from './text-measure';

describe('enUsNumber', () => {
  const intl = new Intl.NumberFormat('en-US');
  it('writes integers as Intl en-US does', () => {
    for (const value of [
      0, 1, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1, -1000, -98_765_432,
    ])
      expect(enUsNumber(value)).toBe(intl.format(value));
    expect(enUsNumber(Number.MAX_SAFE_INTEGER)).toBe(intl.format(Number.MAX_SAFE_INTEGER));
  });
  it('leaves fractions and huge numbers to Intl', () => {
    for (const value of [2.5, 1234.5678, -0.25, 1e21]) expect(enUsNumber(value)).toBe(intl.format(value));
  });
});

describe('graphemeCount', () => {
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const intl = (text: string) => [...segmenter.segment(text)].length;
  it('counts as Intl.Segmenter does', () => {
    for (const text of [
      '',
      'Week 48 of 2026: 1,234 members earned 56,789 Mana. Ledger: https://example.org/ledger/2026-W48 abc',
      'line\r\nbreak\n\rand \r\n\r\n',
      'tab\tand\x00control',
      'café',
      'e\u0301 combining',
      '👩‍👩‍👧 family and 🇫🇷 flag',
      'Übergrößenträger – en dash',
    ])
      expect(graphemeCount(text)).toBe(intl(text));
  });
});
