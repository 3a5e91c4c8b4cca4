import type { ProgrammeRulesView } from '@manaboard/contract/admin';

/** One field of the form: its dotted path in the rules (`weights.like`), how it is entered and explained. */
export type RuleField = { path: string; label: string; help: string; kind: 'list' | 'number' };
export type RuleFieldset = { legend: string; help: string; fields: RuleField[] };

const list = (path: string, label: string, help: string): RuleField => ({ path, label, help, kind: 'list' });
const number = (path: string, label: string, help: string): RuleField => ({
  path,
  label,
  help,
  kind: 'number',
});

/** The form, in the order an operator reads the programme: what is tracked, what it earns, who may refer. */
export const ruleFieldsets: readonly RuleFieldset[] = [
  {
    legend: 'What is tracked',
    help: 'A post is tracked when it uses any keyword or hashtag, or mentions an official account. One per line.',
    fields: [
      list('keywords', 'Keywords', 'Words or phrases, up to 60 characters each; at most 20.'),
      list('hashtags', 'Hashtags', 'Without the # (it is dropped if typed); at most 20.'),
      list(
        'officialHandles',
        'Official accounts',
        "The programme's own handles, without @; 1 to 10. Their posts earn interaction rewards.",
      ),
    ],
  },
  {
    legend: 'Mana for posts',
    help: 'Points a tracked post earns per engagement, and the limits on them.',
    fields: [
      number('weights.like', 'Points per like', 'A whole number, 0 or more.'),
      number('weights.reply', 'Points per reply', 'A whole number, 0 or more.'),
      number('weights.repost', 'Points per repost', 'A whole number, 0 or more.'),
      number('weights.quote', 'Points per quote', 'A whole number, 0 or more.'),
      number(
        'linkedMultiplier',
        'Linked multiplier',
        'Times the points for posts made after linking; 1 to 100.',
      ),
      number('dailyLimit', 'Daily limit', 'Tracked posts per author and UTC day that earn Mana; 1 to 1000.'),
      number(
        'refreshWindowDays',
        'Refresh window (days)',
        'Metrics are refreshed this long, then final; 1 to 30.',
      ),
    ],
  },
  {
    legend: 'Rewards',
    help: 'One-time Mana for referrals and for interacting with the official accounts’ posts.',
    fields: [
      number('referralReward', 'Referral reward', 'Mana for each referred member who links; 0 or more.'),
      number('interactionRewards.like', 'Reward per like', 'Of an official post; 0 or more.'),
      number('interactionRewards.reply', 'Reward per reply', 'To an official post; 0 or more.'),
      number('interactionRewards.repost', 'Reward per repost', 'Of an official post; 0 or more.'),
      number(
        'settleAfterHours',
        'Settle after (hours)',
        'Interactions are re-checked no earlier than this; 0 to 240.',
      ),
      number(
        'settleByHours',
        'Settle by (hours)',
        'And settled by this; at least “settle after”, up to 480.',
      ),
    ],
  },
  {
    legend: 'Referral gate',
    help: 'Who may be referred, and which handles nobody may name as referrer. Members never see these.',
    fields: [
      number(
        'minAccountAgeDays',
        'Minimum account age (days)',
        'A referee’s network account must be this old.',
      ),
      number('minFollowers', 'Minimum followers', 'A referee needs at least this many followers.'),
      list(
        'reservedHandles',
        'Reserved handles',
        'Refused as referrers (HANDLE_RESERVED), besides the official accounts; without @; at most 100.',
      ),
    ],
  },
];

const allFields = ruleFieldsets.flatMap((set) => set.fields);

/** The form's values: text as typed, by dotted path. */
export type RulesForm = Record<string, string>;

const read = (rules: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], rules);

/** The rules in force as the form shows them: lists one item per line, numbers as text. */
export function toForm(rules: ProgrammeRulesView): RulesForm {
  return Object.fromEntries(
    allFields.map((field) => {
      const value = read(rules, field.path);
      return [field.path, Array.isArray(value) ? value.join('\n') : String(value ?? '')];
    }),
  );
}

const items = (text: string) =>
  text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
// Text that is not a number goes as typed, so the server's validation names the field.
const numberOf = (text: string): unknown => {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
};

/** The form as the rules the server validates (`{ rules }` of the preview and the save). */
export function toDraft(form: RulesForm): Record<string, unknown> {
  const draft: Record<string, unknown> = {};
  for (const field of allFields) {
    const text = form[field.path] ?? '';
    const value = field.kind === 'list' ? items(text) : numberOf(text);
    const [head, tail] = field.path.split('.') as [string, string | undefined];
    if (tail === undefined) draft[head] = value;
    else draft[head] = { ...(draft[head] as Record<string, unknown> | undefined), [tail]: value };
  }
  return draft;
}

/** A field's name as the form shows it (a change or error of a path the form has no field for keeps its path). */
export function labelOf(path: string): string {
  return allFields.find((field) => field.path === path)?.label ?? path;
}

/** A value of a change, in words: lists by their items, `none` for an empty list or a missing value. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : 'none';
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}
