import * as z from 'zod/mini';
import { checked } from './checked';
import { referralOk } from './envelopes';

/**
 * The referral service of SPEC §7 (envelope `{ok, data, error}`): linking a social account, the member's
 * account, the referral link, status, stats and apply. Server and web both use these schemas.
 */

/**
 * A domain-style account handle (`alice.example.com`: labels of letters, digits and hyphens, the last one not
 * starting with a digit, at most 253 characters), as networks with domain handles name their members.
 */
export const DOMAIN_HANDLE_PATTERN =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/**
 * A member's handle as referral links and the referrer input accept it: X's rules (1–15 of letters, digits and
 * underscore) or a domain handle (Bluesky's: `alice.bsky.social`). Either way ASCII only, so look-alikes fail.
 */
export const HANDLE_PATTERN = new RegExp(
  `^(?:[A-Za-z0-9_]{1,15}|${DOMAIN_HANDLE_PATTERN.source.slice(1, -1)})$`,
);

/**
 * A handle as a member types or links it: surrounding spaces and one leading @ dropped. Case is kept for
 * display; comparisons are case-insensitive. Returns '' for blank input. Look-alike characters (full-width @,
 * Cyrillic letters…) are not folded: they fail HANDLE_PATTERN and so never match a real handle.
 */
export function normaliseHandle(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith('@') ? trimmed.slice(1).trim() : trimmed;
}

/** A handle shown to users: always with one leading @. */
export function displayHandle(handle: string): string {
  const bare = normaliseHandle(handle);
  return bare ? `@${bare}` : '';
}

/** Where the server may send the browser after linking: the public origin plus one of these paths. */
export const AUTH_RETURN_PATHS = ['/auth/callback', '/linked'] as const;

/**
 * `POST /auth/twitter/start` body. `referrerSlug` comes from whatever `/r/…` link the member followed: the server
 * ignores one that is not a handle rather than refuse to link, so it is only bounded here.
 */
export const authStartRequestSchema = z.strictObject({
  redirectAfter: checked(z.string(), z.minLength(1), z.maxLength(2048)),
  referrerSlug: z.optional(checked(z.string(), z.maxLength(256))),
});
export type AuthStartRequest = z.infer<typeof authStartRequestSchema>;

/** A decentralised identifier (`did:plc:…`, `did:web:…`), the stable id behind such a handle. */
export const DID_PATTERN = /^(?=.{1,2048}$)did:[a-z]+:[A-Za-z0-9._:%-]*[A-Za-z0-9._-]$/;

/** The account a member names to link: a domain handle (one leading @ and spaces dropped) or a DID. */
export const accountNameSchema = z.pipe(
  z.pipe(
    checked(z.string(), z.maxLength(2048)),
    z.transform((value: string) => normaliseHandle(value)),
  ),
  checked(
    z.string(),
    z.minLength(1, 'Type your handle, like alice.example.com.'),
    z.refine((value) => value === '' || DOMAIN_HANDLE_PATTERN.test(value) || DID_PATTERN.test(value), {
      error: 'That is not a handle: a handle looks like alice.example.com.',
    }),
  ),
);

/**
 * The start body on networks where the member names their account first (the network's runtime config says
 * which): the same fields plus `handle`.
 */
export const authStartWithHandleRequestSchema = z.strictObject({
  redirectAfter: checked(z.string(), z.minLength(1), z.maxLength(2048)),
  referrerSlug: z.optional(checked(z.string(), z.maxLength(256))),
  handle: accountNameSchema,
});
export type AuthStartWithHandleRequest = z.input<typeof authStartWithHandleRequestSchema>;

/** `POST /auth/twitter/start` → `data.authorizeUrl` (the browser is sent there). */
export const authStartResponseSchema = referralOk(z.object({ authorizeUrl: z.url() }));

/** `GET /me/account` → `{connected, handle, avatarUrl}`; not linked → `connected:false`, nulls. */
export const accountInfoSchema = z.object({
  connected: z.boolean(),
  handle: z.nullable(z.string()),
  avatarUrl: z.nullable(z.string()),
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;
export const accountResponseSchema = referralOk(accountInfoSchema);

/** `POST /me/unlink {}` (beyond the spec) → `{unlinked}`. */
export const unlinkResponseSchema = referralOk(z.object({ unlinked: z.boolean() }));

/** `POST /referrals/link {}` → `{slug, url}`: slug is the member's handle, url `{origin}/r/@{handle}`. */
export const referralLinkResponseSchema = referralOk(z.object({ slug: z.string(), url: z.url() }));

export const referralStatusValueSchema = z.enum(['not_referred', 'already_referred']);
/** `GET /referrals/status` → `{status, referrerHandle}`. */
export const referralStatusSchema = z.object({
  status: referralStatusValueSchema,
  referrerHandle: z.nullable(z.string()),
});
export type ReferralStatus = z.infer<typeof referralStatusSchema>;
export const referralStatusResponseSchema = referralOk(referralStatusSchema);

/** `GET /referrals/stats` → `{refereeCount}`. */
export const referralStatsResponseSchema = referralOk(
  z.object({ refereeCount: checked(z.number(), z.int(), z.gte(0)) }),
);

/** `POST /referrals/apply` body: the handle as typed (a leading @ is stripped, case-insensitive). */
export const applyReferralRequestSchema = z.strictObject({
  referrerHandle: checked(z.string(), z.maxLength(64)),
});
export type ApplyReferralRequest = z.infer<typeof applyReferralRequestSchema>;

/** `POST /referrals/apply` → `{referrerHandle}` of the referrer now applied. */
export const applyReferralResponseSchema = referralOk(z.object({ referrerHandle: z.string() }));

/** An empty JSON object: the body of writes that take no input (`/referrals/link`, `/me/unlink`). */
export const emptyBodySchema = z.strictObject({});

/**
 * `error=` values the server puts on `redirectAfter` when linking fails: the member cancelled at X, the state
 * was unknown or already used (or came back to another browser than the one that started), the attempt was
 * older than 10 minutes, X refused the code exchange, or too many returns came from this address (try again
 * in a minute).
 */
export const AUTH_CALLBACK_ERRORS = [
  'access_denied',
  'invalid_state',
  'state_expired',
  'exchange_failed',
  'rate_limited',
] as const;
export type AuthCallbackError = (typeof AUTH_CALLBACK_ERRORS)[number];

/**
 * Query keys on `redirectAfter` after a successful link: `referral_applied=true` with `referrer_handle`, or
 * `referral_error=<catalogue code>` when the referrer given at the start was refused (the account is linked).
 */
export const AUTH_RETURN_QUERY = {
  referralApplied: 'referral_applied',
  referrerHandle: 'referrer_handle',
  referralError: 'referral_error',
  error: 'error',
} as const;
