import * as z from 'zod/mini';

/** `GET /healthz` and `GET /readyz`. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Why /readyz is unavailable: the database does not answer, or the worker leader has not run lately. */
  reason: z.optional(z.enum(['database', 'worker'])),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
