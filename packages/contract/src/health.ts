import * as z from 'zod/mini';

/** `GET /healthz` and `GET /readyz`. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  /**
   * Why /readyz is unavailable (503: the database does not answer, or the worker leader has not run lately) or
   * degraded (200: the event stream lags more than READY_STREAM_MAX_LAG_SECONDS).
   */
  reason: z.optional(z.enum(['database', 'worker', 'stream-lag'])),
  /** A sentence for the operator (degraded only). */
  detail: z.optional(z.string()),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
