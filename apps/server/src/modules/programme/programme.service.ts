import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { programmeRulesSchema, type ProgrammeRules } from '@manaboard/contract';
import { paths } from '../../config/config';
import type { Database } from '../../db/schema';
import * as repo from './programme.repository';

/** The rules file shipped with the server; the database is seeded from it once. */
export const PROGRAMME_FILE = path.join(paths.repoRoot, 'apps/server/content/programme.json');

export type ActiveRules = { version: number; rules: ProgrammeRules };

/** Reads and validates a rules file; a broken file names every problem. */
export async function readRulesFile(file = PROGRAMME_FILE): Promise<ProgrammeRules> {
  const parsed = programmeRulesSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(rules)'}: ${i.message}`);
    throw new Error(`Invalid programme rules in ${file}:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
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

/** Stores a new version of the rules (operator change); validated first. */
export async function saveRules(db: Kysely<Database>, input: unknown, source: string): Promise<ActiveRules> {
  const rules = programmeRulesSchema.parse(input);
  const version = await repo.insertRulesVersion(db, rules, source);
  return { version, rules };
}

const quoteTerm = (term: string) => (/^[A-Za-z0-9_]+$/.test(term) ? term : `"${term.replaceAll('"', '')}"`);

/**
 * The network search query of the programme: any keyword, #hashtag or @official, never plain reposts, e.g.
 * `(manaboard OR #ManaBoard OR @ManaboardHQ) -is:retweet`.
 */
export function searchQuery(rules: ProgrammeRules): string {
  const terms = [
    ...rules.keywords.map(quoteTerm),
    ...rules.hashtags.map((tag) => `#${tag}`),
    ...rules.officialHandles.map((handle) => `@${handle}`),
  ];
  return `(${terms.join(' OR ')}) -is:retweet`;
}

/** The query for the official accounts' own posts (their reposts and replies earn members Mana). */
export function officialPostsQuery(rules: ProgrammeRules): string {
  return `(${rules.officialHandles.map((handle) => `from:${handle}`).join(' OR ')}) -is:retweet -is:reply`;
}

/** The query for the replies to one post. */
export function repliesQuery(postId: string): string {
  return `conversation_id:${postId} is:reply`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/**
 * Whether a post's text matches the programme (a keyword or phrase as a run of tokens, a hashtag, or a mention
 * of an official account), case-insensitively. The search already filters; this guards against a network's
 * looser matching so only posts the rules name are tracked.
 */
export function matchesProgramme(rules: ProgrammeRules, text: string): boolean {
  const lower = text.toLowerCase();
  const words = tokens(text);
  const hasRun = (phrase: string) => {
    const run = tokens(phrase);
    if (run.length === 0) return false;
    for (let i = 0; i + run.length <= words.length; i++) {
      if (run.every((word, k) => words[i + k] === word)) return true;
    }
    return false;
  };
  const tagged = (mark: string, name: string) =>
    new RegExp(`(^|[^\\p{L}\\p{N}_])${mark}${escapeRegExp(name.toLowerCase())}(?![\\p{L}\\p{N}_])`, 'u').test(
      lower,
    );
  return (
    rules.keywords.some(hasRun) ||
    rules.hashtags.some((tag) => tagged('#', tag)) ||
    rules.officialHandles.some((handle) => tagged('@', handle))
  );
}
