import { z } from 'zod';

const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** A URL of the app itself (`/brand/logo.svg`) or an absolute http(s) URL. */
const assetUrl = z
  .string()
  .min(1)
  .refine((value) => /^\/(?!\/)/.test(value) || /^https?:\/\//.test(value), {
    error: 'must start with / or http(s)://',
  });
const text = (max: number) => z.string().trim().min(1).max(max);

/** One page of a paged modal (FAQ, How to earn Mana): a title and its paragraphs. */
export const brandingPageSchema = z.object({
  title: text(80),
  /**
   * Paragraphs. How-to-earn texts may name programme rules in braces — `{linkedMultiplier}`, `{dailyLimit}`,
   * `{referralReward}`, `{weights.like}`, `{interactionRewards.reply}`, `{settleAfterHours}`, `{hashtags}` … —
   * filled from `GET /api/programme`, so the text never disagrees with the Mana paid.
   */
  paragraphs: z.array(text(600)).min(1).max(6),
});
export type BrandingPage = z.infer<typeof brandingPageSchema>;

/**
 * Everything programme-specific the web app shows (DESIGN: an operator rebrands without rebuilding). The
 * server reads it from `apps/server/content/branding.json` (or `BRANDING_FILE`) at start-up and serves it at
 * `GET /api/public/branding`; every field has the Manaboard demo's value as its default.
 */
export const brandingSchema = z.object({
  programmeName: text(40).default('Manaboard'),
  daoName: text(60).default('Manaboard DAO'),
  /** Who the footer's "© 2025 …" line names. */
  copyrightHolder: text(80).default('Manaboard DAO'),
  supportEmail: z.email().default('support@manaboard.example'),
  /** Logo shown in the top bar (square artwork). */
  logoUrl: assetUrl.default('/brand/logo.svg'),
  /** Sound played on a logo click; null: a short chime synthesised in the browser. */
  logoSoundUrl: assetUrl.nullable().default(null),
  links: z
    .object({
      communitySite: webUrl.default('https://manaboard.example'),
      pitchdeck: webUrl.default('https://manaboard.example/pitchdeck.pdf'),
      shareableContent: webUrl.default('https://manaboard.example/shareable-content'),
      chat: webUrl.default('https://chat.manaboard.example'),
      social: webUrl.default('https://x.com/ManaboardHQ'),
      /** "Learn more" about the DAO, linked from How to earn Mana. */
      learnMore: webUrl.default('https://manaboard.example/dao'),
      /** An external maker tool shown in a sandboxed frame; null: the built-in maker (`/maker.html`). */
      maker: webUrl.nullable().default(null),
    })
    .prefault({}),
  /** The promo video (YouTube, played from youtube-nocookie.com only on play); null: no video. */
  video: z
    .object({
      youtubeId: z.string().regex(/^[A-Za-z0-9_-]{6,20}$/, 'must be a YouTube video id'),
      title: text(120),
      posterUrl: assetUrl.default('/brand/video-poster.svg'),
    })
    .nullable()
    .default({
      youtubeId: 'aqz-KE-bpKQ',
      title: 'Big Buck Bunny (Blender Foundation, CC BY 3.0): the demo stand-in for your promo video',
      posterUrl: '/brand/video-poster.svg',
    }),
  faq: z.array(brandingPageSchema).length(3, 'the FAQ has exactly 3 pages (SPEC §2)'),
  howToEarn: z.array(brandingPageSchema).length(5, 'How to earn Mana has exactly 5 pages (SPEC §2)'),
});
export type Branding = z.infer<typeof brandingSchema>;
export type BrandingInput = z.input<typeof brandingSchema>;

/** `GET /api/public/branding` → the deployment's branding, every default filled in. */
export const brandingResponseSchema = z.object({
  success: z.literal(true),
  data: brandingSchema,
});
export type BrandingResponse = z.infer<typeof brandingResponseSchema>;
