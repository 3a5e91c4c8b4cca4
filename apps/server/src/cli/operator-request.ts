import os from 'node:os';
import { loadConfig } from '../config/config';
import { DatabaseInUseError } from '../db/owner-lock';
import { migrateToLatest } from '../db/migrate';
import { openConfiguredDatabase } from '../db/open-from-config';
import { operatorActions, type OperatorAction, type OperatorActionName } from '../operator/operator-actions';
import { askOwner } from '../operator/owner-client';
import { officialHandleRule } from '../integrations/official-handles';

/** The operator's name in the audit log: `cli:<user>`. */
function actorName(): string {
  try {
    return `cli:${os.userInfo().username}`;
  } catch {
    return `cli:uid-${process.getuid?.() ?? 'unknown'}`; // a container user without a passwd entry
  }
}

/**
 * Runs one operator action where it is safe: on PostgreSQL or on an embedded database nobody else holds, in this
 * process (migrated first); on an embedded database the running server owns, through that server, which runs the
 * very same action and answers. Returns what to print; throws with the one line to print on failure.
 */
export async function runOperatorAction(action: OperatorActionName, input: unknown): Promise<string> {
  const config = loadConfig();
  const actor = actorName();
  let database;
  try {
    database = await openConfiguredDatabase(config);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError) || error.holder.role !== 'server') throw error;
    const answer = await askOwner(error.holder, config.dataDir, { action, input, actor });
    if (!answer.ok) throw new Error(answer.error, { cause: error });
    return answer.output;
  }
  try {
    const chosen: OperatorAction = operatorActions[action];
    if (chosen.migrates !== false) await migrateToLatest(database.db);
    return await chosen.run(
      {
        db: database.db,
        ...(database.pglite ? { pglite: database.pglite } : {}),
        actor,
        monthlyReadCap: config.x.monthlyReadCap,
        officialHandles: officialHandleRule(config.socialNetwork),
      },
      input,
    );
  } finally {
    await database.close();
  }
}
