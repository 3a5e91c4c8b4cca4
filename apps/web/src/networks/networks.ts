import type { SocialNetworkName } from '@manaboard/contract';

/**
 * What the web needs to know per network; with the adapters beside it (networks/x/…), the only web code that
 * names a network. Features ask for the deployment's network (public config) and look it up here.
 */
export const NETWORKS: Record<SocialNetworkName, { label: string; linkStartPath: string }> = {
  // SPEC §7 keeps X's start route as it always was.
  x: { label: 'X', linkStartPath: '/auth/twitter/start' },
  bluesky: { label: 'Bluesky', linkStartPath: '/auth/bluesky/start' },
};
