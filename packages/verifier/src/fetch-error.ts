/** A fetch that failed, with one plain sentence for the report (never a stack). */
export class FetchError extends Error {
  constructor(
    message: string,
    /** The HTTP status when the server answered, else undefined. */
    readonly status?: number,
    /** The answer's body when the server answered with an error (capped), for XRPC error names. */
    readonly body?: Uint8Array,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}
