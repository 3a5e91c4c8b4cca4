import type { PublicConfigResponse, TrackedPost } from '@manaboard/contract';
import type { ComponentType, ReactNode } from 'react';
import { XEmbed } from './x/x-embed';

/** A network's own embed of a post, showing `fallback` (our card) until and unless it works. */
export type PostEmbed = ComponentType<{ post: TrackedPost; statusId: string; fallback: ReactNode }>;

/**
 * The network's embed for this deployment, or null when posts are drawn as our own cards: the simulation, a
 * network without an embed script, or while the config is not known yet.
 */
export function postEmbedFor(config: PublicConfigResponse['data'] | undefined): PostEmbed | null {
  if (!config || config.simulated) return null;
  return config.socialNetwork === 'x' ? XEmbed : null;
}
