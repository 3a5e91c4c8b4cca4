import * as z from 'zod/mini';

/**
 * The networks a deployment can run on (one per deployment, chosen by SOCIAL_NETWORK). This is the contract's
 * only list of them: everything else speaks of "the network".
 */
export const SOCIAL_NETWORKS = ['x', 'bluesky'] as const;
export const socialNetworkSchema = z.enum(SOCIAL_NETWORKS);
export type SocialNetworkName = z.infer<typeof socialNetworkSchema>;
