import type { NetworkUsage } from '@manaboard/contract/admin';

/**
 * The network's usage panel, behind a neutral port: each network's integration supplies its own (calls per
 * endpoint with cap and cost, or stream lag), so the console never names one. Where it reads its figures from
 * (the database) is the composition root's business: a port knows no storage.
 */
export type NetworkUsageSource = (now: Date) => Promise<NetworkUsage>;
