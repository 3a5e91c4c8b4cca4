import type { NetworkUsage } from '@manaboard/contract/admin';
import type { Db } from '../db/schema';

/**
 * The network's usage panel, behind a neutral port: each network's integration supplies its own (calls per
 * endpoint with cap and cost, or stream lag), so the console never names one.
 */
export type NetworkUsageSource = (db: Db, now: Date) => Promise<NetworkUsage>;
