import * as z from 'zod/mini';
import { checked } from './checked';

/** → where to send the browser (the network's sign-in page). */
export const adminSignInStartResponseSchema = z.object({
  success: z.literal(true),
  authorizeUrl: z.url(),
});

/** Why a console sign-in came back without a session (`/admin?error=…`). */
export const adminSignInErrors = [
  'not_admin',
  'invalid_state',
  'state_expired',
  'access_denied',
  'exchange_failed',
] as const;
export type AdminSignInError = (typeof adminSignInErrors)[number];

/** The admin behind the session, as the console shows them. */
export const adminIdentitySchema = z.object({
  handle: z.string(),
  networkUserId: z.string(),
});
export type AdminIdentity = z.infer<typeof adminIdentitySchema>;

/** `GET /api/admin/session` → who is signed in, the CSRF token for writes, and when the session ends. */
export const adminSessionResponseSchema = z.object({
  success: z.literal(true),
  admin: adminIdentitySchema,
  csrfToken: checked(z.string(), z.minLength(1)),
  /** The latest the session can last (absolute lifetime); idle time ends it sooner. */
  expiresAt: z.iso.datetime({ offset: true }),
  idleTimeoutSeconds: checked(z.number(), z.int()),
});
export type AdminSessionResponse = z.infer<typeof adminSessionResponseSchema>;

/** Body of writes that carry nothing (sign out, publish, archive…). */
export const adminEmptyBodySchema = z.optional(z.strictObject({}));

/** `{success:true}` for writes that return nothing else. */
export const adminOkResponseSchema = z.object({ success: z.literal(true) });
