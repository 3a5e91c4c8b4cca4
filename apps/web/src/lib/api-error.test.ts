import { errorMessages } from '@manaboard/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, userMessageFor } from './api-error';

const community = (text: string) => ({ data: { success: false, error: text } });
const referral = (message: string, code: string) => ({
  data: { ok: false, data: null, error: { message, code } },
  code,
});

describe('userMessageFor (SPEC §8 mapping)', () => {
  it.each([
    ['429', new ApiError('slow down', 429), errorMessages.RATE_LIMIT],
    [
      '429 with a catalogue code',
      new ApiError('x', 429, referral('x', 'RATE_LIMIT_EXCEEDED')),
      errorMessages.RATE_LIMIT,
    ],
    ['401', new ApiError('who are you', 401), errorMessages.UNAUTHORIZED],
    ['a catalogue code', new ApiError('x', 403, referral('x', 'CSRF_INVALID')), errorMessages.CSRF_INVALID],
    [
      'INVALID_REFERRER',
      new ApiError('x', 400, referral('x', 'INVALID_REFERRER')),
      'This referral link is invalid or expired.',
    ],
    ['referee_unverified', new ApiError('referee_unverified', 400), errorMessages.NOT_CONNECTED],
    [
      'referee_unverified in any case',
      new ApiError('Error: REFEREE_UNVERIFIED', 403),
      errorMessages.NOT_CONNECTED,
    ],
    ['already_referred', new ApiError('error: already_referred', 409), errorMessages.ALREADY_REFERRED],
    ['invalid_referrer', new ApiError('invalid_referrer', 400), errorMessages.INVALID_REFERRER],
    ['self_referral', new ApiError('self_referral', 400), errorMessages.SELF_REFERRAL],
    ['handle_reserved', new ApiError('handle_reserved', 400), errorMessages.HANDLE_RESERVED],
    [
      'requires_verification',
      new ApiError('requires_verification', 403),
      errorMessages.REQUIRES_VERIFICATION,
    ],
    ['a network failure', new ApiError('Network error', 0), errorMessages.NETWORK_ERROR],
    [
      '400 with server text',
      new ApiError('limit must be at most 100', 400, community('limit must be at most 100')),
      'limit must be at most 100',
    ],
    ['400 without server text', new ApiError('HTTP 400: Bad Request', 400), errorMessages.UNKNOWN_ERROR],
    ['a 500', new ApiError('boom', 500, community('boom')), errorMessages.UNKNOWN_ERROR],
    ['a time-out', new ApiError('Request timeout', 408), errorMessages.UNKNOWN_ERROR],
    ['a plain Error', new Error('kaput'), errorMessages.UNKNOWN_ERROR],
    ['a non-Error', 'not an error at all', errorMessages.UNKNOWN_ERROR],
  ])('maps %s', (_case, error, message) => {
    expect(userMessageFor(error)).toBe(message);
  });

  it('shows exactly the catalogue text for referee_unverified', () => {
    expect(userMessageFor(new ApiError('referee_unverified', 400))).toBe(
      'Please connect your social account to use referrals.',
    );
  });
});
