import * as z from 'zod/mini';

/** `GET /healthz` and `GET /readyz`. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
