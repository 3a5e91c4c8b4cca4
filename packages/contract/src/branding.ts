import * as z from 'zod/mini';
import { checked } from './checked';

const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** A URL of the app itself (`/brand/logo.svg`) or an absolute http(s) URL. */
const assetUrl = checked(
  z.string(),
  z.minLength(1),
  z.refine((value) => /^\/(?!\/)/.test(value) || /^https?:\/\//.test(value), {
    error: 'must start with / or http(s)://',
  }),
);
/* @__NO_SIDE_EFFECTS__ */
const text = (max: number) => checked(z.string(), z.trim(), z.minLength(1), z.maxLength(max));

/** One page of a paged modal (FAQ, How to earn Mana): a title and its paragraphs. */
export const brandingPageSchema = z.object({
  title: text(80),
  /**
   * Paragraphs. How-to-earn texts may name programme rules in braces — `{linkedMultiplier}`, `{dailyLimit}`,
   * `{referralReward}`, `{weights.like}`, `{interactionRewards.reply}`, `{settleAfterHours}`, `{hashtags}` … —
   * filled from `GET /api/programme`, so the text never disagrees with the Mana paid.
   */
  paragraphs: checked(z.array(text(600)), z.minLength(1), z.maxLength(6)),
});
export type BrandingPage = z.infer<typeof brandingPageSchema>;

/**
 * Everything programme-specific the web app shows (DESIGN: an operator rebrands without rebuilding). The
 * server reads it from `apps/server/content/branding.json` (or `BRANDING_FILE`) at start-up and serves it at
 * `GET /api/public/branding`; every field has the Manaboard demo's value as its default.
 */
export const brandingSchema = z.object({
  programmeName: z._default(text(40), 'Manaboard'),
  daoName: z._default(text(60), 'Manaboard DAO'),
  /** Who the footer's "© 2025 …" line names. */
  copyrightHolder: z._default(text(80), 'Manaboard DAO'),
  supportEmail: z._default(z.email(), 'support@manaboard.example'),
  /** Logo shown in the top bar (square artwork). */
  logoUrl: z._default(assetUrl, '/brand/logo.svg'),
  /** Sound played on a logo click; null: a short chime synthesised in the browser. */
  logoSoundUrl: z._default(z.nullable(assetUrl), null),
  links: z.prefault(
    z.object({
      communitySite: z._default(webUrl, 'https://manaboard.example'),
      pitchdeck: z._default(webUrl, 'https://manaboard.example/pitchdeck.pdf'),
      shareableContent: z._default(webUrl, 'https://manaboard.example/shareable-content'),
      chat: z._default(webUrl, 'https://chat.manaboard.example'),
      social: z._default(webUrl, 'https://x.com/ManaboardHQ'),
      /** "Learn more" about the DAO, linked from How to earn Mana. */
      learnMore: z._default(webUrl, 'https://manaboard.example/dao'),
      /** An external maker tool shown in a sandboxed frame; null: the built-in maker (`/maker.html`). */
      maker: z._default(z.nullable(webUrl), null),
    }),
    {},
  ),
  /** The promo video (YouTube, played from youtube-nocookie.com only on play); null: no video. */
  video: z._default(
    z.nullable(
      z.object({
        youtubeId: checked(z.string(), z.regex(/^[A-Za-z0-9_-]{6,20}$/, 'must be a YouTube video id')),
        title: text(120),
        posterUrl: z._default(assetUrl, '/brand/video-poster.svg'),
      }),
    ),
    {
      youtubeId: 'aqz-KE-bpKQ',
      title: 'Big Buck Bunny (Blender Foundation, CC BY 3.0): the demo stand-in for your promo video',
      posterUrl: '/brand/video-poster.svg',
    },
  ),
  faq: checked(z.array(brandingPageSchema), z.length(3, 'the FAQ has exactly 3 pages (SPEC §2)')),
  howToEarn: checked(
    z.array(brandingPageSchema),
    z.length(5, 'How to earn Mana has exactly 5 pages (SPEC §2)'),
  ),
});
export type Branding = z.infer<typeof brandingSchema>;
export type BrandingInput = z.input<typeof brandingSchema>;

/** `GET /api/public/branding` → the deployment's branding, every default filled in. */
export const brandingResponseSchema = z.object({
  success: z.literal(true),
  data: brandingSchema,
});
export type BrandingResponse = z.infer<typeof brandingResponseSchema>;
