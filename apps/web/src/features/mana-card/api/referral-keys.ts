/**
 * Query keys of the referral reads. Every answer belongs to one member, so the keys carry the account's
 * handle (lower-cased, as handles compare): after a relink to another account, in this tab or another, the
 * card asks again instead of showing the new handle with the old link or status for 5 minutes.
 */
export const referralKeys = {
  all: ['referrals'] as const,
  account: (handle: string) => [...referralKeys.all, handle.toLowerCase()] as const,
  link: (handle: string) => [...referralKeys.account(handle), 'link'] as const,
  status: (handle: string) => [...referralKeys.account(handle), 'status'] as const,
  stats: (handle: string) => [...referralKeys.account(handle), 'stats'] as const,
};
