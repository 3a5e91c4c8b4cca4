import { z } from 'zod';

/**
 * How a stream network's refresh trusts its stream over the AppView's reading (ADR 013): how long a post the
 * AppView does not return is kept before it counts as deleted, and how close to now the stream's last stored event
 * must be for the stream to count as caught up. Kept apart from config.ts so the pieces stay small.
 */
export const streamAuthorityEnv = {
  BLUESKY_MISSING_GRACE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  BLUESKY_STREAM_CAUGHT_UP_SECONDS: z.coerce.number().int().min(5).max(86_400).default(300),
};

export type StreamAuthorityConfig = { missingGraceMs: number; caughtUpMs: number };

/** The defaults, for a Bluesky config built by hand (tests). */
export const DEFAULT_STREAM_AUTHORITY: StreamAuthorityConfig = {
  missingGraceMs: 3_600_000,
  caughtUpMs: 300_000,
};

export function streamAuthorityConfig(e: {
  BLUESKY_MISSING_GRACE_MINUTES: number;
  BLUESKY_STREAM_CAUGHT_UP_SECONDS: number;
}): StreamAuthorityConfig {
  return {
    missingGraceMs: e.BLUESKY_MISSING_GRACE_MINUTES * 60_000,
    caughtUpMs: e.BLUESKY_STREAM_CAUGHT_UP_SECONDS * 1000,
  };
}
