import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorCodeSchema, errorMessages, errorTextMarkers, isCatalogueCode, messageFor } from './errors';

describe('the SPEC §8 error catalogue', () => {
  it('holds every code with the exact message users see', () => {
    expect(errorMessages).toEqual({
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
    });
  });

  it('maps the markers of SPEC §8, referee_unverified to NOT_CONNECTED', () => {
    expect(Object.fromEntries(errorTextMarkers)).toEqual({
      referee_unverified: 'NOT_CONNECTED',
      already_referred: 'ALREADY_REFERRED',
      invalid_referrer: 'INVALID_REFERRER',
      self_referral: 'SELF_REFERRAL',
      network: 'NETWORK_ERROR',
      handle_reserved: 'HANDLE_RESERVED',
      requires_verification: 'REQUIRES_VERIFICATION',
    });
  });

  it('tells catalogue codes from anything else', () => {
    expect(messageFor('SELF_REFERRAL')).toBe('You cannot refer yourself.');
    expect(isCatalogueCode('EMPTY_INPUT')).toBe(true);
    expect(isCatalogueCode('toString')).toBe(false);
    expect(isCatalogueCode('BAD_REQUEST')).toBe(false);
    expect(errorCodeSchema.safeParse('BAD_REQUEST').success).toBe(true);
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isCatalogueCode(s)).toBe(Object.keys(errorMessages).includes(s));
      }),
    );
  });
});
