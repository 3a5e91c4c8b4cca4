/** Query keys of the referrals feature (all of them belong to the current browser's member). */
export const referralKeys = {
  all: ['referrals'] as const,
  link: () => [...referralKeys.all, 'link'] as const,
  status: () => [...referralKeys.all, 'status'] as const,
  stats: () => [...referralKeys.all, 'stats'] as const,
};
