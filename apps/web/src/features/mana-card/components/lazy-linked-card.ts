import { lazyWithPreload } from '../../../lib/lazy-with-preload';

// Only a linked member sees this card (its stats, referral link, Get Referred and Unlink): a first visit never
// loads it. The first screen starts loading it as soon as the account check says linked.
const linkedCard = lazyWithPreload(
  () => import('./linked-card'),
  (m) => m.LinkedCard,
);

export const LazyLinkedCard = linkedCard.Component;
export const preloadLinkedCard = linkedCard.preload;
