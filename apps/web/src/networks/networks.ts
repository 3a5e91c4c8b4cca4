import type { SocialNetworkName } from '@manaboard/contract';
import type { ComponentType } from 'react';
import { BlueskyHandleForm } from './bluesky/bluesky-handle-form';
import type { HandleFormProps } from './handle-form-props';

export type NetworkWeb = {
  label: string;
  linkStartPath: string;
  /** What the card invites the member to link ("Link your … to earn"). */
  accountNoun: string;
  /** A handle such a network can have, for examples and placeholders (`@mana_fan` is no Bluesky handle). */
  exampleHandle: string;
  /** Where the member names their account before the network's sign-in page; null: straight to it. */
  handleForm: ComponentType<HandleFormProps> | null;
};

/**
 * What the web needs to know per network; with the adapters beside it (networks/x/…, networks/bluesky/…), the
 * only web code that names a network. Features ask for the deployment's network (public config) and look it up
 * here.
 */
export const NETWORKS: Record<SocialNetworkName, NetworkWeb> = {
  // SPEC §7 keeps X's start route as it always was.
  x: {
    label: 'X',
    linkStartPath: '/auth/twitter/start',
    accountNoun: 'social account',
    exampleHandle: 'mana_fan',
    handleForm: null,
  },
  bluesky: {
    label: 'Bluesky',
    linkStartPath: '/auth/bluesky/start',
    accountNoun: 'Bluesky account',
    exampleHandle: 'mana-fan.bsky.social',
    handleForm: BlueskyHandleForm,
  },
};

/** The deployment's network, or X's presentation while the public config is not known yet. */
export function networkWeb(network: SocialNetworkName | undefined): NetworkWeb {
  return NETWORKS[network ?? 'x'];
}
