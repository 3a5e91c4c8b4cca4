import { createHash } from 'node:crypto';
import { canonicalJson, ledgerRulesSchema, type LedgerRules } from '@manaboard/contract/ledger';
import { programmeRulesSchema } from '@manaboard/contract';

/** A rules version as the ledger's header lists it. */
export type LedgerRulesEntry = { hash: string; rules: LedgerRules; version: number };

/** `sha256:<64 hex>` of some bytes: how the ledger writes every hash. */
export function sha256Of(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/**
 * The rules members may know (the fields of `GET /api/programme`), from a stored version, with the hash of their
 * canonical JSON. The referee anti-bot gate and the reserved handles stay private: they decide no line's Mana.
 */
export function ledgerRulesEntry(version: number, stored: unknown): LedgerRulesEntry {
  const r = programmeRulesSchema.parse(stored);
  const rules = ledgerRulesSchema.parse({
    dailyLimit: r.dailyLimit,
    hashtags: r.hashtags,
    interactionRewards: r.interactionRewards,
    keywords: r.keywords,
    linkedMultiplier: r.linkedMultiplier,
    officialHandles: r.officialHandles,
    referralReward: r.referralReward,
    refreshWindowDays: r.refreshWindowDays,
    settleAfterHours: r.settleAfterHours,
    settleByHours: r.settleByHours,
    weights: r.weights,
  });
  return { hash: sha256Of(canonicalJson(rules)), rules, version };
}
