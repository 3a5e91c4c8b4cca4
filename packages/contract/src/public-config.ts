import * as z from 'zod/mini';

/**
 * `GET /api/public/config` → what the web app needs to know about this deployment at run time: which
 * network the programme runs on and whether it is the simulated one (the web shows a "Demo: simulated X" badge).
 */
export const publicConfigResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    socialNetwork: z.enum(['x', 'bluesky']),
    simulated: z.boolean(),
  }),
});
export type PublicConfigResponse = z.infer<typeof publicConfigResponseSchema>;
