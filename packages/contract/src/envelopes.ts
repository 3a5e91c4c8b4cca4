import * as z from 'zod/mini';
import { checked } from './checked';

/** Error half of the referral-service envelope: `{ok:false, data:null, error:{message, code}}`. */
export const referralErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
});

/** Success envelope of the referral service (SPEC §3): `{ok:true, data, error:null}`. */
/* @__NO_SIDE_EFFECTS__ */
export function referralOk<T extends z.ZodMiniType>(data: T) {
  return z.object({ ok: z.literal(true), data, error: z.null() });
}

/** Failure envelope of the referral service. */
export const referralFailureSchema = z.object({
  ok: z.literal(false),
  data: z.null(),
  error: referralErrorSchema,
});
export type ReferralFailure = z.infer<typeof referralFailureSchema>;

/** Failure shape of the community API (`/api/*`): `{success:false, error:"message"}`. */
export const communityFailureSchema = z.object({
  success: z.literal(false),
  error: z.string(),
});
export type CommunityFailure = z.infer<typeof communityFailureSchema>;

/** `GET /csrf-token` → `{ok:true, data:{csrfToken}}`. */
export const csrfTokenResponseSchema = referralOk(
  z.object({ csrfToken: checked(z.string(), z.minLength(1)) }),
);
