import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from './etag';

describe('ifNoneMatchHits', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", W/"abc" ,"y"', true],
    ['*', true],
    ['"abd"', false],
    ['abc', false],
    ['', false],
  ])('%j → %s', (header, hit) => {
    expect(ifNoneMatchHits(header, etag)).toBe(hit);
  });
  it('is false without the header', () => {
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
  });
});
