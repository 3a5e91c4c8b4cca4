import { brandingSchema, type Branding, type ProgrammeResponse } from '@manaboard/contract';
import shipped from '../../../server/content/branding.json';

/** The shipped demo branding, parsed as the server serves it (tests only). */
export const demoBranding: Branding = brandingSchema.parse(shipped);

/** A programme answer whose numbers differ from every default, so a test sees they come from the rules. */
export const testProgramme: ProgrammeResponse['data'] = {
  version: 4,
  keywords: ['manaboard'],
  hashtags: ['ManaBoard', 'EarnMana'],
  officialHandles: ['ManaboardHQ'],
  weights: { like: 7, reply: 8, repost: 9, quote: 11 },
  linkedMultiplier: 4,
  dailyLimit: 6,
  refreshWindowDays: 9,
  referralReward: 75,
  interactionRewards: { like: 2, reply: 5, repost: 4 },
  settleAfterHours: 12,
  settleByHours: 48,
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** Routes for fakeReferralService: the branding and programme answers. */
export function brandingRoutes(branding: Branding = demoBranding, programme = testProgramme) {
  return {
    'GET /api/public/branding': json({ success: true, data: branding }),
    'GET /api/programme': json({ success: true, data: programme }),
  };
}
