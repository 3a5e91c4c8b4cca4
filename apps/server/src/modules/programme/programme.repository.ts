import type { Db } from '../../db/schema';

export type StoredRules = { version: number; rules: unknown; source: string; createdAt: Date };

/** The newest stored version of the programme rules, if any. */
export async function findLatestRules(db: Db): Promise<StoredRules | undefined> {
  const row = await db
    .selectFrom('programme_rules')
    .selectAll()
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { version: row.version, rules: row.rules, source: row.source, createdAt: row.created_at };
}

/** Stores a new version (the next number); two writers racing get a unique violation, not two versions. */
export async function insertRulesVersion(db: Db, rules: unknown, source: string): Promise<number> {
  const latest = await findLatestRules(db);
  const version = (latest?.version ?? 0) + 1;
  await db
    .insertInto('programme_rules')
    .values({ version, rules: JSON.stringify(rules), source })
    .execute();
  return version;
}
