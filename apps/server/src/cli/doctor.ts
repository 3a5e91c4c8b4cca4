import { ConfigError, loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { openConfiguredDatabase } from '../db/open-from-config';
import { DatabaseInUseError } from '../db/owner-lock';
import { formatDoctor, runDoctor, type CheckLine } from '../doctor/doctor';

/**
 * `npm run doctor`: checks this deployment as configured (the environment and .env) and prints one line per check,
 * problems first; exit 1 when there is one. Never a stack trace: a failure is one line.
 */
async function doctor(): Promise<number> {
  const config = loadConfig();
  const notes: CheckLine[] = [];
  let database;
  try {
    database = await openConfiguredDatabase(config);
    await migrateToLatest(database.db);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    // The running server owns the embedded database; its own start-up check logged the official accounts.
    notes.push({
      ok: true,
      text: 'the embedded database is held by the running server: the official accounts are left out here (the server checks them at start)',
    });
  }
  try {
    const lines = [...notes, ...(await runDoctor({ config, ...(database ? { db: database.db } : {}) }))];
    console.log(formatDoctor(lines));
    return lines.some((l) => !l.ok) ? 1 : 0;
  } finally {
    await database?.close();
  }
}

doctor().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `doctor: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
