import * as z from 'zod/mini';

/**
 * The error catalogue of SPEC §8: every stable code the referral service answers with, and the message a
 * user sees for it. One source for the server (which answers with these codes) and the web (which shows them).
 */
export const errorMessages = {
  NOT_CONNECTED: 'Please connect your social account to use referrals.',
  ALREADY_REFERRED: "You've already been referred by someone else.",
  INVALID_REFERRER: 'This referral link is invalid or expired.',
  SELF_REFERRAL: 'You cannot refer yourself.',
  NETWORK_ERROR: 'Connection failed. Please check your internet and try again.',
  RATE_LIMIT: 'Rate limit exceeded. Please wait a moment and try again.',
  UNAUTHORIZED: 'Please connect your social account first.',
  UNKNOWN_ERROR: 'Something went wrong. Please try again.',
  HANDLE_RESERVED: 'This handle is already reserved by another user.',
  REQUIRES_VERIFICATION: 'Social account verification required.',
  CSRF_INVALID: 'Security token expired. Please try again.',
  CSRF_TOKEN_REQUIRED: 'Security token is required. Please refresh and try again.',
  CSRF_GENERATION_FAILED: 'Failed to generate security token. Please try again.',
  CSRF_REFRESH_FAILED: 'Failed to refresh security token. Please try again.',
  RATE_LIMIT_EXCEEDED: 'Too many requests. Please wait a moment and try again.',
  EMPTY_INPUT: 'Please enter a referrer handle.',
  CLIPBOARD_FAILED: 'Failed to copy to clipboard',
} as const;

export type CatalogueCode = keyof typeof errorMessages;

/**
 * Codes the server adds beyond the catalogue for failures the catalogue does not name (bad input, unknown
 * route, wrong media type, body too large). They carry their own message, never a stack trace.
 */
export const serverErrorCodes = [
  'BAD_REQUEST',
  'NOT_FOUND',
  'FORBIDDEN',
  'CONFLICT',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL_ERROR',
  // A write the current state does not allow (a second appeal, an appeal without a disqualification).
  'CONFLICT',
] as const;

export type ServerErrorCode = (typeof serverErrorCodes)[number];
export type ErrorCode = CatalogueCode | ServerErrorCode;

export const errorCodeSchema = z.enum([
  ...(Object.keys(errorMessages) as [CatalogueCode, ...CatalogueCode[]]),
  ...serverErrorCodes,
]);

/** The user-facing message for a catalogue code. */
export function messageFor(code: CatalogueCode): string {
  return errorMessages[code];
}

export function isCatalogueCode(code: string): code is CatalogueCode {
  return Object.hasOwn(errorMessages, code);
}

/**
 * SPEC §8 mapping from a server's error text to a catalogue code: text containing one of these markers maps to
 * that code's message (referee_unverified maps to NOT_CONNECTED).
 */
export const errorTextMarkers: ReadonlyArray<readonly [marker: string, code: CatalogueCode]> = [
  ['referee_unverified', 'NOT_CONNECTED'],
  ['already_referred', 'ALREADY_REFERRED'],
  ['invalid_referrer', 'INVALID_REFERRER'],
  ['self_referral', 'SELF_REFERRAL'],
  ['network', 'NETWORK_ERROR'],
  ['handle_reserved', 'HANDLE_RESERVED'],
  ['requires_verification', 'REQUIRES_VERIFICATION'],
];
