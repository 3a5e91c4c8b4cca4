/**
 * A failed X call, typed: which endpoint, the HTTP status (0 for network failures and time-outs) and X's own
 * message. The worker reports these; nothing in the server needs to parse X's error bodies.
 */
export class XApiError extends Error {
  override name = 'XApiError';
  constructor(
    readonly endpoint: string,
    readonly status: number,
    message: string,
    readonly kind: 'http' | 'network' | 'timeout' | 'invalid-body' | 'budget' = 'http',
  ) {
    super(`X ${endpoint}: ${message}${status ? ` (HTTP ${status})` : ''}`);
  }
}
