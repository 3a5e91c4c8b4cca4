import fs from 'node:fs';
import path from 'node:path';
import { invocationDirectory, loadConfig } from '../config/config';
import { backupDatabase, defaultBackupName } from '../db/backup';
import { noMore, operate, runCommand } from './run-command';

/** `npm run db:backup [file]`: a whole, durable backup file of the configured database. */
await runCommand({
  usage: `Write a backup of the configured database, safe while the server runs: PostgreSQL (DATABASE_URL) with
pg_dump (custom format), the embedded database (DATA_DIR) as PGlite's own dump (tar.gz), taken by the running
server when it owns the data directory. Without a file:
backups/${defaultBackupName('pglite').replace(/\d{8}T\d{6}Z/, '<utc-time>')} (or .dump), from where you run it.

Usage:
  npm run db:backup [file]
  Restore with: npm run db:restore <file>`,
  run: async (args) => {
    noMore(args.positionals, 1);
    const config = loadConfig();
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    const given = args.positionals[0];
    const file = path.resolve(invocationDirectory(), given ?? path.join('backups', defaultBackupName(kind)));
    if (config.databaseUrl) {
      const { bytes } = await backupDatabase({ kind: 'postgres', url: config.databaseUrl }, file);
      return `Backed up PostgreSQL to ${file} (${bytes} bytes)`;
    }
    if (!fs.existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION')))
      throw new Error(`No embedded database in ${config.dataDir} (DATA_DIR): nothing to back up`);
    // The owner of the data directory (the running server, or this process when none runs) writes the file.
    return operate('db.backup', { file });
  },
});
