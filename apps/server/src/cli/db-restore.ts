import path from 'node:path';
import { invocationDirectory, loadConfig } from '../config/config';
import { restoreDatabase } from '../db/backup';
import { noMore, required, runCommand } from './run-command';

/** `npm run db:restore <file>`: puts a backup back; the next start migrates it if it is older than the code. */
await runCommand({
  usage: `Restore a backup made by npm run db:backup over the configured database. Stop the server (API and
workers) first: on the embedded database a restore under a running server is refused. PostgreSQL
(DATABASE_URL): pg_restore --clean in one transaction. Embedded (DATA_DIR): the backup is loaded and checked
first; the current data is kept beside it (data/pglite.before-restore-<time>).

Usage:
  npm run db:restore <file>`,
  run: async (args) => {
    const given = required(args.positionals[0], 'backup file');
    noMore(args.positionals, 1);
    const config = loadConfig();
    const file = path.resolve(invocationDirectory(), given);
    if (config.databaseUrl) {
      await restoreDatabase({ kind: 'postgres', url: config.databaseUrl }, file);
      return `Restored ${file} into PostgreSQL`;
    }
    const { previous } = await restoreDatabase({ kind: 'pglite', dataDir: config.dataDir }, file);
    return `Restored ${file} into ${path.join(config.dataDir, 'pglite')}${previous ? `; the previous data is in ${previous}` : ''}`;
  },
});
