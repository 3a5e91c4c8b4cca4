import { BLUESKY_OFFICIAL_HANDLES } from '../integrations/bluesky/bluesky-ids';
import { X_OFFICIAL_HANDLES } from '../integrations/x/x-official-handles';
import type { NetworkName, OfficialHandleRule } from './social-network';

/** The configured network's rule for official handles (its adapter's). */
export function officialHandleRule(network: NetworkName): OfficialHandleRule {
  return network === 'bluesky' ? BLUESKY_OFFICIAL_HANDLES : X_OFFICIAL_HANDLES;
}
