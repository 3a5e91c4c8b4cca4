import path from 'node:path';
import type { Kysely } from 'kysely';
import { ConfigError } from '../../config/config';
import type { Database } from '../../db/schema';
import type { OfficialHandleRule } from '../../social/social-network';
import { parseRules, PROGRAMME_FILE, readRulesFile } from './programme.service';
import * as repo from './programme.repository';

export type ProgrammeStart = {
  /** The simulated X's demo world, whose people are the rules file's example official accounts. */
  demo: boolean;
  /** OFFICIAL_ACCOUNTS: the official accounts a new database starts with off the demo. */
  officialAccounts: string[] | undefined;
  /** The network's rule for handles: a named account must be one the network can have. */
  handles?: OfficialHandleRule;
};

/** Off the demo, the programme refuses to start with official accounts nobody gave it; the message says why. */
export class OfficialAccountsError extends ConfigError {
  override name = 'OfficialAccountsError';
}

const sameHandles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((h, i) => h.toLowerCase() === b[i]?.toLowerCase());

const CHANGE_RULES =
  'change the rules (the console\'s "Programme rules", or npm run mana -- rules <file.json>)';

/**
 * What keeps the programme from starting with official accounts it was not given, as one line, or null. The rules
 * file's official accounts (`ManaboardHQ`, `ManaboardDev`) are the simulated X's demo people; anywhere else they are
 * strangers (on Bluesky `manaboardhq.bsky.social`, an account that may be anyone's) whose posts would earn members
 * interaction Mana and who would be reserved as referrers.
 */
export async function officialAccountsRefusal(
  db: Kysely<Database>,
  start: ProgrammeStart,
  file = PROGRAMME_FILE,
): Promise<string | null> {
  if (start.demo) return null;
  const examples = (await readRulesFile(file)).officialHandles;
  const latest = await repo.findLatestRules(db);
  if (!latest) {
    return start.officialAccounts
      ? null
      : `official accounts: OFFICIAL_ACCOUNTS is not set. Off the simulated X's demo the programme does not start with the rules file's example accounts (${examples.join(', ')}: anyone's accounts on a real network): set OFFICIAL_ACCOUNTS=handle[,handle] to your programme's own accounts (e.g. team.example.com)`;
  }
  const rules = parseRules(latest.rules, `rules v${latest.version}`);
  const confirmed = start.officialAccounts && sameHandles(start.officialAccounts, examples);
  if (sameHandles(rules.officialHandles, examples) && !confirmed) {
    return `official accounts: the rules in force (v${latest.version}) still name the rules file's example accounts ${examples.join(', ')}, not accounts you named: ${CHANGE_RULES}, or, if they are yours, say so with OFFICIAL_ACCOUNTS=${examples.join(',')}`;
  }
  return null;
}

/**
 * Seeds the rules of a new database (version 1): on the demo the rules file as shipped; anywhere else the file with
 * the official accounts OFFICIAL_ACCOUNTS names (checked against the network's rule for handles). A database that
 * has rules keeps them (they are the operator's). Throws OfficialAccountsError (one line) when the programme must
 * not start; returns the version seeded, or null.
 */
export async function seedProgrammeRules(
  db: Kysely<Database>,
  start: ProgrammeStart,
  file = PROGRAMME_FILE,
): Promise<number | null> {
  const refusal = await officialAccountsRefusal(db, start, file);
  if (refusal) throw new OfficialAccountsError(refusal);
  if (await repo.findLatestRules(db)) return null;
  const shipped = await readRulesFile(file);
  const officialHandles = start.demo ? shipped.officialHandles : (start.officialAccounts ?? []);
  const rules = parseRules({ ...shipped, officialHandles }, 'OFFICIAL_ACCOUNTS', start.handles);
  const source = `file:${path.basename(file)}${start.demo ? '' : ' with OFFICIAL_ACCOUNTS'}`;
  try {
    return await repo.insertRulesVersion(db, rules, source);
  } catch (error) {
    // Another process seeded at the same moment: its version is as good as ours.
    if (await repo.findLatestRules(db)) return null;
    throw error;
  }
}

/**
 * What the deployment check says about the official accounts besides their ids: the refusal above, or
 * OFFICIAL_ACCOUNTS naming other accounts than the rules in force (it only seeds a new database).
 */
export async function officialAccountProblems(
  db: Kysely<Database>,
  start: ProgrammeStart,
  file = PROGRAMME_FILE,
): Promise<string[]> {
  const refusal = await officialAccountsRefusal(db, start, file);
  if (refusal) return [refusal];
  const latest = start.demo ? undefined : await repo.findLatestRules(db);
  if (!latest || !start.officialAccounts) return [];
  const named = parseRules(latest.rules, `rules v${latest.version}`).officialHandles;
  return sameHandles(start.officialAccounts, named)
    ? []
    : [
        `official accounts: OFFICIAL_ACCOUNTS names ${start.officialAccounts.join(', ')} but the rules in force (v${latest.version}) name ${named.join(', ')}; OFFICIAL_ACCOUNTS only seeds a new database, so ${CHANGE_RULES}`,
      ];
}
