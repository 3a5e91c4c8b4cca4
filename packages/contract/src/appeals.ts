import * as z from 'zod/mini';
import { checked } from './checked';
import { referralOk } from './envelopes';

/**
 * Appeals (issue 13): a disqualified member sees why on their card and may send one appeal per
 * disqualification; the operator's answer shows on the card. Member side: `GET /me/standing`,
 * `POST /me/appeal` (referral-service envelope, CSRF). Operator side: the console's Members section.
 */

/** Bounds of an appeal's text, after surrounding spaces are dropped. */
export const APPEAL_MIN_CHARS = 10;
export const APPEAL_MAX_CHARS = 500;

/** The text of an appeal as the member typed it: trimmed, 10–500 characters. */
export const appealTextSchema = checked(
  z.string(),
  z.trim(),
  z.minLength(APPEAL_MIN_CHARS, `Please write at least ${APPEAL_MIN_CHARS} characters.`),
  z.maxLength(APPEAL_MAX_CHARS, `Please keep your appeal under ${APPEAL_MAX_CHARS + 1} characters.`),
);

/** `POST /me/appeal` body. */
export const submitAppealRequestSchema = z.strictObject({ text: appealTextSchema });
export type SubmitAppealRequest = z.infer<typeof submitAppealRequestSchema>;

/** One appeal as its member and the operator see it. */
export const appealShape = {
  id: z.string(),
  text: z.string(),
  createdAt: z.string(),
  answer: z.nullable(z.string()),
  answeredAt: z.nullable(z.string()),
};
export const appealSchema = z.object(appealShape);
export type Appeal = z.infer<typeof appealSchema>;

/**
 * `GET /me/standing`: whether the member is disqualified, the operator's reason and when, whether they may
 * still appeal, and their latest appeal (with the answer once given). Not linked → `linked:false`.
 */
export const memberStandingSchema = z.object({
  linked: z.boolean(),
  disqualified: z.boolean(),
  reason: z.nullable(z.string()),
  disqualifiedAt: z.nullable(z.string()),
  canAppeal: z.boolean(),
  appeal: z.nullable(appealSchema),
});
export type MemberStanding = z.infer<typeof memberStandingSchema>;
export const memberStandingResponseSchema = referralOk(memberStandingSchema);

/** `POST /me/appeal` → the appeal as stored. */
export const submitAppealResponseSchema = referralOk(appealSchema);
