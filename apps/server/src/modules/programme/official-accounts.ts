import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database } from '../../db/schema';

/** The network's answer for a handle: the account's stable id, or null when nobody answers to it. */
export type ResolveHandle = (handle: string) => Promise<string | null>;

export type OfficialAccount = { handle: string; networkUserId: string; resolvedAt: Date };

const key = (handle: string) => handle.replace(/^@/, '').toLowerCase();

/** Every official account whose id is kept, by handle (lower case). */
export async function storedOfficialAccounts(db: Kysely<Database>): Promise<Map<string, OfficialAccount>> {
  const rows = await db.selectFrom('official_accounts').selectAll().execute();
  return new Map(
    rows.map((r) => [
      r.handle,
      { handle: r.handle, networkUserId: r.network_user_id, resolvedAt: r.resolved_at },
    ]),
  );
}

/**
 * The official accounts' stable ids for a set of rules (the rules name them by handle). A handle resolved before
 * keeps the id it had then, whoever holds the handle now: a handle that changes hands changes nothing. A handle
 * never resolved is resolved now, and its id kept; one nobody answers to is left out and reported in `unresolved`.
 * Without `resolve`, only kept ids are returned.
 */
export async function officialAccountIds(
  db: Kysely<Database>,
  rules: Pick<ProgrammeRules, 'officialHandles'>,
  resolve?: ResolveHandle,
): Promise<{ ids: Set<string>; unresolved: string[] }> {
  const stored = await storedOfficialAccounts(db);
  const ids = new Set<string>();
  const unresolved: string[] = [];
  for (const handle of rules.officialHandles) {
    const kept = stored.get(key(handle));
    if (kept) {
      ids.add(kept.networkUserId);
      continue;
    }
    const id = resolve ? await resolve(handle) : null;
    if (!id) {
      unresolved.push(handle);
      continue;
    }
    // Two processes resolving at once: the first id kept wins, and both use it.
    await db
      .insertInto('official_accounts')
      .values({ handle: key(handle), network_user_id: id })
      .onConflict((oc) => oc.column('handle').doNothing())
      .execute();
    const winner = await db
      .selectFrom('official_accounts')
      .select('network_user_id')
      .where('handle', '=', key(handle))
      .executeTakeFirstOrThrow();
    ids.add(winner.network_user_id);
  }
  return { ids, unresolved };
}

/** One line of a deployment check: what was checked and whether it is a problem. */
export type CheckLine = { ok: boolean; text: string };

/**
 * Whether each official account of the rules is still the account the programme keeps: its handle resolved now
 * against the id kept since it was first resolved (a handle never resolved is resolved and kept now).
 */
export async function checkOfficialAccounts(
  db: Kysely<Database>,
  rules: Pick<ProgrammeRules, 'officialHandles'>,
  resolve: ResolveHandle,
): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  for (const handle of rules.officialHandles) {
    const kept = (await storedOfficialAccounts(db)).get(key(handle));
    let now: string | null;
    try {
      now = await resolve(handle);
    } catch (error) {
      lines.push({
        ok: false,
        text: `official account ${handle}: cannot be resolved now (${messageOf(error)})`,
      });
      continue;
    }
    if (kept && now === kept.networkUserId) {
      lines.push({ ok: true, text: `official account ${handle} is ${kept.networkUserId}` });
    } else if (kept) {
      lines.push({
        ok: false,
        text: `official account ${handle} now resolves to ${now ?? 'nobody'}, not to ${kept.networkUserId}, the account the programme has followed since ${kept.resolvedAt.toISOString().slice(0, 10)}: the handle changed hands or was given up, and the programme still follows ${kept.networkUserId}; if that account took a new handle, name the new one in the rules`,
      });
    } else if (now) {
      await officialAccountIds(db, { officialHandles: [handle] }, async () => now);
      lines.push({ ok: true, text: `official account ${handle} is ${now} (kept by this id from now on)` });
    } else {
      lines.push({
        ok: false,
        text: `official account ${handle}: nobody answers to this handle; check the rules' official accounts`,
      });
    }
  }
  return lines;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
