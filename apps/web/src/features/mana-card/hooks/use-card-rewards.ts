import { DEFAULT_REFERRAL_REWARD_MANA, DEFAULT_LINKED_MULTIPLIER } from '../../../config/constants';
import { useProgrammeRules } from '../../../lib/programme';

const multiplierWords: Record<number, string> = { 2: 'double', 3: 'triple', 4: 'quadruple' };

/** "triple" for 3, "5×" for 5: how the card says the linked multiplier. */
export function multiplierWord(multiplier: number): string {
  return multiplierWords[multiplier] ?? `${multiplier}×`;
}

/**
 * What the card advertises, from the programme rules the engine pays by (GET /api/programme), so the card can
 * never promise other numbers than the ones paid. Until the rules arrive (or if they cannot be read) the
 * shipped defaults stand in, which keeps the card's text from jumping on first paint.
 */
export function useCardRewards(): { referralReward: number; multiplier: string } {
  const rules = useProgrammeRules().data;
  return {
    referralReward: rules?.referralReward ?? DEFAULT_REFERRAL_REWARD_MANA,
    multiplier: multiplierWord(rules?.linkedMultiplier ?? DEFAULT_LINKED_MULTIPLIER),
  };
}
