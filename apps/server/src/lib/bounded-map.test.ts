import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('a bounded map', () => {
  it('holds at most its limit, the oldest set leaving first, and a key set again keeps its place', () => {
    const m = new BoundedMap<string, number>(3);
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['a', 10],
    ] as const)
      m.set(k, v);
    expect(m.size).toBe(3);
    expect(m.get('a')).toBe(10);
    m.set('d', 4);
    expect([m.get('a'), m.get('b'), m.get('c'), m.get('d')]).toEqual([undefined, 2, 3, 4]);
    for (let n = 0; n < 10_000; n++) m.set(`did:plc:${n}`, n);
    expect(m.size).toBe(3);
    expect(m.get('did:plc:9999')).toBe(9999);
  });
});
