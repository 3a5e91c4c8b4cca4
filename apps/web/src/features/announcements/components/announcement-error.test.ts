import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { announcementErrorText } from './announcement-error';

describe('announcementErrorText (SPEC §8, What’s New)', () => {
  it('says "Request timeout. Please try again." for our own time-out', () => {
    expect(announcementErrorText(new ApiError('Request timeout', 408))).toBe(
      'Request timeout. Please try again.',
    );
  });

  it('uses "HTTP {status}: {statusText}" for a non-OK answer, whatever the body said', () => {
    const error = new ApiError('limit must be at most 100', 400, {
      statusText: 'Bad Request',
      data: { success: false, error: 'limit must be at most 100' },
    });
    expect(announcementErrorText(error)).toBe('Failed to load announcements: HTTP 400: Bad Request');
    expect(announcementErrorText(new ApiError('x', 503, { statusText: 'Service Unavailable' }))).toBe(
      'Failed to load announcements: HTTP 503: Service Unavailable',
    );
  });

  it('uses the message of any other Error', () => {
    expect(announcementErrorText(new ApiError('Network error', 0))).toBe(
      'Failed to load announcements: Network error',
    );
    expect(announcementErrorText(new ApiError('Invalid JSON response', 200))).toBe(
      'Failed to load announcements: Invalid JSON response',
    );
    expect(announcementErrorText(new TypeError('x is undefined'))).toBe(
      'Failed to load announcements: x is undefined',
    );
  });

  it('says "An unexpected error occurred." for anything that is not an Error', () => {
    for (const thrown of ['a string', 42, null, undefined, { message: 'looks like one' }]) {
      expect(announcementErrorText(thrown)).toBe('An unexpected error occurred.');
    }
  });
});
