import { ApiError } from '../../../lib/api-error';

/**
 * The What's New error texts of SPEC §8: a time-out says so; a non-OK answer is "HTTP {status}: {statusText}"
 * inside "Failed to load announcements: …"; anything that is not an Error is "An unexpected error occurred."
 */
export function announcementErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isTimeout) return 'Request timeout. Please try again.';
    const detail = error.status >= 400 ? `HTTP ${error.status}: ${error.statusText}` : error.message;
    return `Failed to load announcements: ${detail}`;
  }
  if (error instanceof Error) return `Failed to load announcements: ${error.message}`;
  return 'An unexpected error occurred.';
}
