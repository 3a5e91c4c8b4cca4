import { ApiError, UNEXPECTED_RESPONSE_MESSAGE } from './api-error';

/** What the panel failed to load: its fallback text names it (SPEC §8). */
export type BoardResource = 'authors' | 'posts' | 'breakdown';

const fallback: Record<BoardResource, string> = {
  authors: 'Failed to fetch authors',
  posts: 'Failed to fetch tweets',
  breakdown: 'Failed to fetch the breakdown',
};

/**
 * The leaderboard's error line (SPEC §2, §8): "Error: {message}" with the server's own error text when it sent
 * one, "HTTP error! status: {n}" for another failed status, the client's message for a time-out, a network
 * failure or a bad body, "Failed to fetch authors/tweets" for an answer of the wrong shape; "Unknown error"
 * for anything that is not an error at all.
 */
export function leaderboardErrorText(error: unknown, resource: BoardResource): string {
  if (!(error instanceof Error)) return 'Unknown error';
  if (!(error instanceof ApiError)) return `Error: ${error.message || fallback[resource]}`;
  if (error.hasServerText && error.message.trim()) return `Error: ${error.message}`;
  if (error.message === UNEXPECTED_RESPONSE_MESSAGE) return `Error: ${fallback[resource]}`;
  if (error.status >= 400 && !error.isTimeout) return `Error: HTTP error! status: ${error.status}`;
  return `Error: ${error.message}`;
}
