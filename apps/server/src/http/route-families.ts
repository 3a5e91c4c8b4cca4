/**
 * The server speaks two dialects (SPEC §7): the referral service answers `{ok, data, error:{message, code}}`,
 * the community API (`/api/*`) answers `{success, ...}`. Errors follow the dialect of the path.
 */
export type RouteFamily = 'referral' | 'community' | 'other';

const referralPrefixes = [
  '/csrf-token',
  '/auth/twitter',
  '/auth/bluesky',
  '/me/',
  '/me?',
  '/referrals/',
  '/referrals?',
];

export function routeFamilyOf(url: string): RouteFamily {
  const pathOnly = url.split('?')[0] ?? url;
  if (pathOnly === '/api' || pathOnly.startsWith('/api/')) return 'community';
  if (pathOnly === '/me' || pathOnly === '/referrals') return 'referral';
  if (referralPrefixes.some((prefix) => url.startsWith(prefix))) return 'referral';
  return 'other';
}
