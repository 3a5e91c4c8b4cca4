import { describe, expect, it } from 'vitest';
import { AuthorRepositories, repositoryCap } from './author-repositories';
import { Http } from './http';

const MB = 1024 ** 2;

// What is held and for how long; the fetch and its checks run against the local network in verify.network.test.ts.
describe('the repositories a run holds', () => {
  const repositories = (
    counts: Record<string, number>,
    options: { threshold: number; rate?: number; maxHeldBytes?: number },
  ) => new AuthorRepositories(new Http(), new Map(Object.entries(counts)), { rate: 1, ...options });

  it('caps a fetch at 16 KB a record, between 1 MB and 64 MB', () => {
    expect(repositoryCap(1)).toBe(MB);
    expect(repositoryCap(100)).toBe(1_638_400);
    expect(repositoryCap(100.2)).toBe(101 * 16 * 1024);
    expect(repositoryCap(1_000_000)).toBe(64 * MB);
  });

  it('fetches the repository of an author with records left × the rate at the threshold, not below', () => {
    const run = repositories({ a: 8, b: 7 }, { threshold: 8 });
    expect(run.next('b', true)).toBeNull();
    expect(run.next('a', true)).not.toBeNull();
    expect(run.heldBytesNow).toBe(2 * repositoryCap(8)); // the CAR while read, then its index: twice its cap
    // Sampled at a half, eight records are four expected: each checked with its own proof.
    const sampled = repositories({ a: 8 }, { threshold: 8, rate: 0.5 });
    expect(sampled.next('a', true)).toBeNull();
    // Undrawn records count off without a fetch; the threshold weighs the records left.
    const late = repositories({ a: 9 }, { threshold: 8 });
    expect(late.next('a', false)).toBeNull();
    expect(late.next('a', false)).toBeNull();
    expect(late.next('a', true)).toBeNull();
    expect(late.heldBytesNow).toBe(0);
    // 0 always, Infinity never.
    expect(repositories({}, { threshold: 0 }).next('x', true)).not.toBeNull();
    expect(repositories({ a: 1e6 }, { threshold: Infinity }).next('a', true)).toBeNull();
  });

  it("keeps a repository while its author's records are left and being checked, then drops it", () => {
    const run = repositories({ a: 3 }, { threshold: 0 });
    const first = run.next('a', true)!;
    const second = run.next('a', true)!;
    expect(run.next('a', false)).toBeNull(); // the last, not drawn
    expect(run.heldBytesNow).toBe(2 * MB);
    first.release();
    first.release();
    expect(run.heldBytesNow).toBe(2 * MB);
    second.release();
    expect(run.heldBytesNow).toBe(0);
  });

  it('checks further authors record by record while the bound is reached', () => {
    const run = repositories({ a: 2, b: 2, c: 2 }, { threshold: 0, maxHeldBytes: 3 * MB });
    const a = run.next('a', true)!;
    expect(run.next('b', true)).toBeNull();
    expect(run.next('a', false)).toBeNull();
    a.release();
    expect(run.heldBytesNow).toBe(0);
    expect(run.next('c', true)).not.toBeNull();
    expect(run.heldBytesNow).toBe(2 * MB);
  });
});
