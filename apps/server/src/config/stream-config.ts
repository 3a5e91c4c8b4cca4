import { z } from 'zod';

/** The event-stream consumer's operational bounds (issue 22), parsed beside the rest of the environment. */
export const streamEnvShape = {
  READY_STREAM_MAX_LAG_SECONDS: z.coerce.number().int().min(0).default(120),
};

/**
 * `maxLagSeconds`: above this lag the stream counts as behind: /readyz answers `degraded`, the worker logs that
 * it fell behind (and, below half of it, that it caught up), the console marks the lag. 0: not checked.
 */
export type StreamConfig = { maxLagSeconds: number };

export function streamConfig(e: { READY_STREAM_MAX_LAG_SECONDS: number }): StreamConfig {
  return { maxLagSeconds: e.READY_STREAM_MAX_LAG_SECONDS };
}
