import type { Db } from '../../db/schema';
import type { StreamEvent } from './stream-events';

/**
 * An account's current handle as the network confirms it (the account names it and it points back at the
 * account), or null when no handle is confirmed.
 */
export type CurrentHandle = (networkUserId: string) => Promise<string | null>;

/**
 * The handles of accounts whose identity changed, for the accounts the programme knows (a tracked author or a
 * linked member) only, as the network confirms them (an account names its own handle, so an unconfirmed claim is
 * nobody's). A member is their network user id: a new handle renames them, it never makes a new member.
 */
export async function confirmedRenames(
  db: Db,
  events: readonly StreamEvent[],
  currentHandle: CurrentHandle | undefined,
  log: { warn: (obj: object, msg: string) => void },
): Promise<Map<string, string>> {
  const ids = [...new Set(events.flatMap((e) => (e.type === 'identity' ? [e.authorId] : [])))];
  const confirmed = new Map<string, string>();
  if (ids.length === 0 || !currentHandle) return confirmed;
  const known = new Set([
    ...(await db.selectFrom('authors').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
    ...(
      await db.selectFrom('accounts').select('network_user_id').where('network_user_id', 'in', ids).execute()
    ).map((r) => r.network_user_id),
  ]);
  for (const id of known) {
    try {
      const handle = await currentHandle(id);
      if (handle) confirmed.set(id, handle.toLowerCase());
      else log.warn({ id }, 'stream: an identity change without a confirmed handle is ignored');
    } catch (error) {
      log.warn(
        { err: error, id },
        'stream: a handle change not confirmed; the next refresh or relink updates it',
      );
    }
  }
  return confirmed;
}

/**
 * Renames authors and linked accounts (a display name that was only the old handle follows it). Returns the
 * authors whose leaderboard rows must be served anew.
 */
export async function applyRenames(
  db: Db,
  renames: ReadonlyMap<string, string>,
  now: Date,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [id, handle] of renames) {
    const author = await db
      .selectFrom('authors')
      .select(['handle', 'display_name'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (author && author.handle !== handle) {
      await db
        .updateTable('authors')
        .set({
          handle,
          ...(author.display_name === author.handle ? { display_name: handle } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
      changed.push(id);
    }
    await db
      .updateTable('accounts')
      .set({ handle, updated_at: now })
      .where('network_user_id', '=', id)
      .where('handle', '<>', handle)
      .execute();
  }
  return changed;
}
