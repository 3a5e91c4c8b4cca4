import type { Branding, ProgrammeResponse } from '@manaboard/contract';

export type ProgrammeRulesView = ProgrammeResponse['data'];

const list = (items: readonly string[], prefix = '') =>
  items.length === 0 ? '—' : items.map((item) => `${prefix}${item}`).join(', ');

/**
 * The values a branding text may name in braces: every number of the programme rules (nested ones with a dot,
 * `{weights.like}`), the hashtags, keywords and official handles as lists, and the programme and DAO names.
 */
export function ruleValues(
  rules: ProgrammeRulesView | undefined,
  branding: Pick<Branding, 'programmeName' | 'daoName'>,
): Record<string, string> {
  const values: Record<string, string> = {
    programmeName: branding.programmeName,
    daoName: branding.daoName,
  };
  if (!rules) return values;
  for (const [key, value] of Object.entries(rules)) {
    if (typeof value === 'number') values[key] = String(value);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, number] of Object.entries(value as Record<string, unknown>)) {
        if (typeof number === 'number') values[`${key}.${inner}`] = String(number);
      }
    }
  }
  values.hashtags = list(rules.hashtags, '#');
  values.keywords = list(rules.keywords);
  values.officialHandles = list(rules.officialHandles, '@');
  return values;
}

/**
 * Fills `{name}` placeholders from `values`. An unknown name (or a rule not loaded yet) becomes "…", never the
 * raw placeholder, so a member never reads a made-up number.
 */
export function fillRules(text: string, values: Record<string, string>): string {
  return text.replace(/\{([A-Za-z]+(?:\.[A-Za-z]+)?)\}/g, (_match, name: string) => values[name] ?? '…');
}
