import { randomInt } from 'node:crypto';

/**
 * Bernoulli sampling: each record is checked with probability `rate`, drawn from the system's cryptographic
 * random source, so the operator cannot know in advance which records a verifier will look at.
 */
export function sampler(rate: number): () => boolean {
  if (rate >= 1) return () => true;
  const scale = 2 ** 47;
  return () => randomInt(scale) < rate * scale;
}

/**
 * The most faulty records a sample that found none leaves possible at `confidence`: a faulty record escapes a
 * Bernoulli sample of rate p with probability 1 − p, so F of them all escape with (1 − p)^F, which is below
 * 1 − confidence once F > ln(1 − confidence) / ln(1 − p). (p = 5 %, 95 %: at most 58 faulty records, whatever
 * their number and wherever they are.)
 */
export function faultBound(rate: number, confidence = 0.95): number {
  if (rate >= 1) return 0;
  if (rate <= 0) return Infinity;
  return Math.floor(Math.log(1 - confidence) / Math.log(1 - rate));
}
