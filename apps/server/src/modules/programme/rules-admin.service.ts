import type { Kysely } from 'kysely';
import { programmeRulesSchema } from '@manaboard/contract';
import {
  type RulesFieldChange,
  type RulesValidation,
  type RulesVersionsQuery,
} from '@manaboard/contract/admin';
import type { Database } from '../../db/schema';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import type { OfficialHandleRule, SocialNetwork } from '../../social/social-network';
import { changeRules, type Rescore } from '../mana/rescore.service';
import { activeRules } from './programme.service';
import * as repo from './programme.repository';
import { diffRules, rulesQueryPreview, validateRules } from './rules-diff';

/** The console's view of the port: how a query reads on the network, and which handles it can have. */
export type QueryDescriber = Pick<SocialNetwork, 'describeQuery'> & { handles?: OfficialHandleRule };

/** Stored rules as the schema orders them (jsonb keeps its own key order), or as stored if they no longer parse. */
const ordered = (rules: unknown) => {
  const parsed = programmeRulesSchema.safeParse(rules);
  return parsed.success ? parsed.data : rules;
};

/** The versions of the rules, newest first: who saved each (null for the seeded file), when, from where. */
export async function listRuleVersions(db: Kysely<Database>, query: RulesVersionsQuery) {
  const current = (await activeRules(db)).version;
  const { rows, total } = await repo.listRulesVersions(db, query);
  const actors = await repo.rulesVersionActors(
    db,
    rows.map((r) => r.version),
  );
  return {
    current,
    total,
    versions: rows.map((r) => ({
      version: r.version,
      source: r.source,
      createdAt: r.created_at.toISOString(),
      actor: actors.get(r.version) ?? null,
    })),
  };
}

/** A version against the one before it, field by field; NotFoundError for a version never stored. */
export async function ruleVersionDiff(db: Kysely<Database>, version: number) {
  const found = await repo.findRulesVersionWithPrevious(db, version);
  if (!found) throw new NotFoundError(`There is no version ${version} of the rules`);
  const { current, previous } = found;
  return {
    version,
    previousVersion: previous?.version ?? null,
    changes: previous ? diffRules(ordered(previous.rules), ordered(current.rules)) : [],
  };
}

/**
 * A draft of the rules as the console's form holds it: its validation per field, what it would change against
 * the rules in force, and the network queries it would produce with their length against the network's limit.
 * Stores nothing.
 */
export async function previewRules(db: Kysely<Database>, input: unknown, network: QueryDescriber) {
  const active = await activeRules(db);
  const { rules, ...validation } = validateRules(input, network.handles);
  return {
    currentVersion: active.version,
    validation,
    changes: rules ? diffRules(active.rules, rules) : [],
    queries: rules ? rulesQueryPreview(rules, network) : [],
  };
}

/** Rules that do not validate: a 400 whose `validation` a form can show field by field. */
export class RulesInvalidError extends BadRequestError {
  constructor(readonly validation: RulesValidation) {
    const fields = Object.keys(validation.fieldErrors);
    super(
      `The rules are not valid${fields.length ? `: check ${fields.join(', ')}` : ''}${
        validation.formErrors.length ? ` (${validation.formErrors.join('; ')})` : ''
      }`,
    );
  }
}

export type RulesSave = {
  version: number;
  unchanged: boolean;
  changes: RulesFieldChange[];
  rules: ReturnType<typeof programmeRulesSchema.parse>;
  rescore: Rescore;
};

/**
 * An operator saves the rules from the console: validated first (RulesInvalidError with per-field messages),
 * then changeRules stores the next version, audits it with before and after in the same transaction and rescores
 * what it affects; Mana already final is never rewritten. Rules equal to those in force store nothing.
 */
export async function saveRulesDraft(
  db: Kysely<Database>,
  input: unknown,
  options: { actor: string; now: Date; source?: string; handles?: OfficialHandleRule },
): Promise<RulesSave> {
  const validation = validateRules(input, options.handles);
  if (!validation.valid) {
    const { valid, fieldErrors, formErrors } = validation;
    throw new RulesInvalidError({ valid, fieldErrors, formErrors });
  }
  const before = await activeRules(db);
  const change = await changeRules(db, input, {
    source: options.source ?? 'console',
    actor: options.actor,
    now: options.now,
    handles: options.handles,
  });
  return {
    version: change.version,
    unchanged: change.unchanged,
    changes: change.unchanged ? [] : diffRules(before.rules, change.rules),
    rules: change.rules,
    rescore: change.rescore,
  };
}
