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

/** Stored versions, newest first, one page; `total` counts them all. */
export async function listRulesVersions(db: Db, page: { limit: number; offset: number }) {
  const rows = await db
    .selectFrom('programme_rules')
    .select(['version', 'source', 'created_at'])
    .orderBy('version', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await db
    .selectFrom('programme_rules')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

/** One version and the one stored before it (undefined when there is none). */
export async function findRulesVersionWithPrevious(db: Db, version: number) {
  const rows = await db
    .selectFrom('programme_rules')
    .select(['version', 'rules', 'source', 'created_at'])
    .where('version', '<=', version)
    .orderBy('version', 'desc')
    .limit(2)
    .execute();
  const [current, previous] = rows;
  return current?.version === version ? { current, previous } : undefined;
}

/** Who saved each version, from the audit log's `programme.rules` entries (subject `v{version}`). */
export async function rulesVersionActors(db: Db, versions: readonly number[]): Promise<Map<number, string>> {
  if (versions.length === 0) return new Map();
  const rows = await db
    .selectFrom('audit_log')
    .select(['subject', 'actor'])
    .where('action', '=', 'programme.rules')
    .where(
      'subject',
      'in',
      versions.map((v) => `v${v}`),
    )
    .execute();
  return new Map(rows.map((r) => [Number((r.subject ?? '').slice(1)), r.actor]));
}
