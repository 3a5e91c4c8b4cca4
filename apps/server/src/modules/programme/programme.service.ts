import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { programmeRulesSchema, type ProgrammeRules } from '@manaboard/contract';
import { paths } from '../../config/config';
import type { Database } from '../../db/schema';
import type { OfficialHandleRule, PostQuery } from '../../social/social-network';
import * as repo from './programme.repository';

// The matcher lives apart, free of the rules' schema and the config: the stream's worker thread runs it (issue 33).
export { matchesProgramme } from './programme-match';

/** The rules file shipped with the server; the database is seeded from it once. */
export const PROGRAMME_FILE = path.join(paths.repoRoot, 'apps/server/content/programme.json');

export type ActiveRules = { version: number; rules: ProgrammeRules };

/** The rules' handle lists that name accounts of the network (official and reserved). */
const HANDLE_LISTS = ['officialHandles', 'reservedHandles'] as const;

/**
 * What the network's `handles` rule finds wrong with the rules' handle lists: each problem with its list and the
 * item's index (`reservedHandles.0`). None without a rule.
 */
export function networkHandleProblems(
  rules: ProgrammeRules,
  handles?: OfficialHandleRule,
): { field: (typeof HANDLE_LISTS)[number]; index: number; problem: string }[] {
  if (!handles) return [];
  return HANDLE_LISTS.flatMap((field) =>
    rules[field].flatMap((handle, index) => {
      const problem = handles.problem(handle);
      return problem ? [{ field, index, problem }] : [];
    }),
  );
}

/**
 * Validates a set of rules; the error names every problem and where the rules came from. With the network's
 * `handles` rule, each official and reserved handle must also be one the configured network can have.
 */
export function parseRules(input: unknown, from: string, handles?: OfficialHandleRule): ProgrammeRules {
  const parsed = programmeRulesSchema.safeParse(input);
  const problems = parsed.success
    ? networkHandleProblems(parsed.data, handles).map((p) => `${p.field}.${p.index}: ${p.problem}`)
    : parsed.error.issues.map((i) => `${i.path.join('.') || '(rules)'}: ${i.message}`);
  if (!parsed.success || problems.length > 0)
    throw new Error(`Invalid programme rules in ${from}:\n  ${problems.join('\n  ')}`);
  return parsed.data;
}

/** Reads and validates a rules file; a broken file names every problem. */
export async function readRulesFile(file = PROGRAMME_FILE): Promise<ProgrammeRules> {
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read programme rules from ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseRules(json, file);
}

/**
 * The rules in force: the newest stored version. A database without any is seeded from the file (version 1),
 * so the file is only the default; later versions come from the operator.
 */
export async function activeRules(db: Kysely<Database>, seedFrom = PROGRAMME_FILE): Promise<ActiveRules> {
  let latest = await repo.findLatestRules(db);
  if (!latest) {
    const rules = await readRulesFile(seedFrom);
    try {
      await repo.insertRulesVersion(db, rules, `file:${path.basename(seedFrom)}`);
    } catch (error) {
      // Another process seeded at the same moment: its version is as good as ours.
      if (!(await repo.findLatestRules(db))) throw error;
    }
    latest = await repo.findLatestRules(db);
    if (!latest) throw new Error('programme rules vanished right after seeding');
  }
  return { version: latest.version, rules: programmeRulesSchema.parse(latest.rules) };
}

/**
 * Stores a new version of the rules (operator change); validated first. Only the rules are stored: callers that
 * change the rules in force use the Mana engine's changeRules, which also rescores what they affect.
 */
export async function saveRules(db: Kysely<Database>, input: unknown, source: string): Promise<ActiveRules> {
  const rules = parseRules(input, source);
  const version = await repo.insertRulesVersion(db, rules, source);
  return { version, rules };
}

/**
 * The programme's search, as the social-network port takes it (each network adapter writes its own syntax):
 * originals and quotes naming any keyword, hashtag or official account, never plain reposts.
 */
export function programmeQuery(rules: ProgrammeRules): PostQuery {
  return {
    type: 'matching',
    keywords: rules.keywords,
    hashtags: rules.hashtags,
    mentions: rules.officialHandles,
  };
}

/** The official accounts' own posts (their reposts and replies earn members Mana). */
export function officialPostsQuery(rules: ProgrammeRules): PostQuery {
  return { type: 'postsOf', handles: rules.officialHandles };
}
