import * as z from 'zod/mini';
import { socialNetworkSchema } from './networks';

/**
 * `GET /api/public/config` → what the web app needs to know about this deployment at run time: which
 * network the programme runs on and whether it is the simulated one (the web then shows a demo badge).
 */
export const publicConfigResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    socialNetwork: socialNetworkSchema,
    simulated: z.boolean(),
  }),
});
export type PublicConfigResponse = z.infer<typeof publicConfigResponseSchema>;
