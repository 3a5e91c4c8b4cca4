import {
  communityFailureSchema,
  errorMessages,
  errorTextMarkers,
  isCatalogueCode,
  messageFor,
  referralFailureSchema,
} from '@manaboard/contract';

export const REQUEST_TIMEOUT_MESSAGE = 'Request timeout';
export const NETWORK_ERROR_MESSAGE = 'Network error';
export const INVALID_JSON_MESSAGE = 'Invalid JSON response';
export const UNEXPECTED_RESPONSE_MESSAGE = 'Unexpected response from server';

export type ApiErrorDetails = {
  /** The parsed body, when there was one. */
  data?: unknown;
  /** The referral service's stable code (SPEC §8), when it sent one. */
  code?: string | null;
  statusText?: string;
};

/**
 * Every failed call, as SPEC §8 describes it: a message, the HTTP status (408 time-out, 0 network failure),
 * the parsed body when there was one, and the server's stable code for referral-service errors.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly data: unknown;
  readonly code: string | null;
  readonly statusText: string;

  constructor(
    message: string,
    readonly status: number,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.data = details.data ?? null;
    this.code = details.code ?? null;
    this.statusText = details.statusText ?? '';
  }
  get isRateLimit(): boolean {
    return this.status === 429;
  }
  get isUnauthorized(): boolean {
    return this.status === 401;
  }
  get isBadRequest(): boolean {
    return this.status === 400;
  }
  get isNotFound(): boolean {
    return this.status === 404;
  }
  /** Our own 10 s time-out, as opposed to a server that happened to answer 408. */
  get isTimeout(): boolean {
    return this.status === 408 && this.message === REQUEST_TIMEOUT_MESSAGE;
  }
  /** True when the message is text the server wrote (either error dialect), not one the client made up. */
  get hasServerText(): boolean {
    return (
      communityFailureSchema.safeParse(this.data).success ||
      referralFailureSchema.safeParse(this.data).success
    );
  }
}

/** The catalogue message for a code from outside (a URL, say); anything not in the catalogue is UNKNOWN_ERROR's. */
export function catalogueMessage(code: string): string {
  return isCatalogueCode(code) ? messageFor(code) : errorMessages.UNKNOWN_ERROR;
}

function fromMarkers(text: string): string | undefined {
  const lower = text.toLowerCase();
  const hit = errorTextMarkers.find(([marker]) => lower.includes(marker));
  return hit ? messageFor(hit[1]) : undefined;
}

/**
 * The message a user sees for a failure (SPEC §8 "Mapping"): 429 → rate limit, 401 → unauthorized, a catalogue
 * code → its message, a network failure → its message, a known marker in the text → its message, 400 → the
 * server's text when it sent one, anything else the default.
 */
export function userMessageFor(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessages.UNKNOWN_ERROR;
  if (error.isRateLimit) return errorMessages.RATE_LIMIT;
  if (error.isUnauthorized) return errorMessages.UNAUTHORIZED;
  if (error.code && isCatalogueCode(error.code)) return messageFor(error.code);
  if (error.status === 0) return errorMessages.NETWORK_ERROR;
  const marked = fromMarkers(error.message);
  if (marked) return marked;
  if (error.isBadRequest && error.hasServerText && error.message.trim()) return error.message;
  return errorMessages.UNKNOWN_ERROR;
}
