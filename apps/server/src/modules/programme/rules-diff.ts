import { isDeepStrictEqual } from 'node:util';
import { programmeRulesSchema, type ProgrammeRules } from '@manaboard/contract';
import {
  type NetworkQueryPreview,
  type RulesFieldChange,
  type RulesValidation,
} from '@manaboard/contract/admin';
import type { OfficialHandleRule, QueryPreview } from '../../social/social-network';
import { networkHandleProblems, officialPostsQuery, programmeQuery } from './programme.service';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Field-level differences between two sets of rules, in the schema's field order: nested objects (weights,
 * interaction rewards) by their own fields (`weights.like`), lists as a whole with what was added and removed.
 * `before` undefined (the first version) lists nothing: there is nothing to compare with.
 */
export function diffRules(before: unknown, after: unknown, prefix = ''): RulesFieldChange[] {
  if (before === undefined || !isRecord(after)) return [];
  const old = isRecord(before) ? before : {};
  const keys = [...new Set([...Object.keys(after), ...Object.keys(old)])];
  return keys.flatMap((key): RulesFieldChange[] => {
    const field = prefix ? `${prefix}.${key}` : key;
    const a = old[key];
    const b = after[key];
    if (isDeepStrictEqual(a, b)) return [];
    if (isRecord(a) && isRecord(b)) return diffRules(a, b, field);
    if (Array.isArray(a) && Array.isArray(b)) {
      return [
        {
          field,
          before: a,
          after: b,
          added: b.filter((x) => !a.some((y) => isDeepStrictEqual(x, y))),
          removed: a.filter((x) => !b.some((y) => isDeepStrictEqual(x, y))),
        },
      ];
    }
    return [{ field, before: a ?? null, after: b ?? null }];
  });
}

/**
 * Validates a draft with the contract's rules schema and groups the problems the way a form shows them: by
 * field (dotted path; an item of a list under its list, named by its position), and those about the whole set.
 * With the network's `handles` rule, official and reserved handles the network cannot have are field errors too.
 */
export function validateRules(
  input: unknown,
  handles?: OfficialHandleRule,
): RulesValidation & { rules?: ProgrammeRules } {
  const parsed = programmeRulesSchema.safeParse(input);
  const fieldErrors: Record<string, string[]> = {};
  if (parsed.success) {
    const problems = networkHandleProblems(parsed.data, handles);
    if (problems.length === 0) return { valid: true, fieldErrors, formErrors: [], rules: parsed.data };
    for (const { field, index, problem } of problems)
      (fieldErrors[field] ??= []).push(`item ${index + 1}: ${problem}`);
    return { valid: false, fieldErrors, formErrors: [] };
  }
  const formErrors: string[] = [];
  for (const issue of parsed.error.issues) {
    const names = issue.path.filter((p) => typeof p === 'string');
    const index = issue.path.find((p) => typeof p === 'number');
    const message = index === undefined ? issue.message : `item ${index + 1}: ${issue.message}`;
    if (names.length === 0) formErrors.push(message);
    else (fieldErrors[names.join('.')] ??= []).push(message);
  }
  return { valid: false, fieldErrors, formErrors };
}

/**
 * The network queries a set of rules produces, as the network runs them (through the port's describeQuery), with
 * their length against the network's limit; a network without a limit (an event stream's filter) says so.
 */
export function rulesQueryPreview(
  rules: ProgrammeRules,
  network: { describeQuery: (query: ReturnType<typeof programmeQuery>) => QueryPreview },
): NetworkQueryPreview[] {
  const queries = [
    { purpose: 'programme' as const, query: programmeQuery(rules) },
    { purpose: 'officialPosts' as const, query: officialPostsQuery(rules) },
  ];
  return queries.map(({ purpose, query }) => {
    const { text, maxLength } = network.describeQuery(query);
    return {
      purpose,
      text,
      length: text.length,
      maxLength,
      withinLimit: maxLength === null || text.length <= maxLength,
    };
  });
}
