import { lazy } from 'react';

// Only a linked member sees this card (its stats, referral link, Get Referred and Unlink): a first visit never
// loads it. The first screen starts loading it as soon as the account check says linked.
const load = () => import('./linked-card');

export const LazyLinkedCard = lazy(() => load().then((m) => ({ default: m.LinkedCard })));

/** Warms the linked card's chunk; a failure here is harmless (rendering it loads it again and reports). */
export function preloadLinkedCard(): Promise<void> {
  return load().then(
    () => undefined,
    () => undefined,
  );
}
