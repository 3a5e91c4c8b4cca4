import { BLUESKY_OFFICIAL_HANDLES } from './bluesky/bluesky-facts';
import { X_OFFICIAL_HANDLES } from './x/x-official-handles';
import type { NetworkName, OfficialHandleRule } from '../social/social-network';

/**
 * The configured network's rule for official handles (its adapter's), picked by the composition roots (app.ts,
 * main.ts, the operator's command) and handed to what checks rules; the port itself knows no adapter.
 */
export function officialHandleRule(network: NetworkName): OfficialHandleRule {
  return network === 'bluesky' ? BLUESKY_OFFICIAL_HANDLES : X_OFFICIAL_HANDLES;
}
