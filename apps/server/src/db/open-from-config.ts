import type { Config } from '../config/config';
import { ownerSocketPath } from '../operator/owner-socket';
import { openDatabase, type DatabaseHandle } from './database';
import type { OwnerRole } from './owner-lock';

/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR,
 * owned by this process (DatabaseInUseError when another live process owns it). The server records the socket
 * it takes operator commands on in its lock. The hooks: `onConnectionError` (PostgreSQL only), `onThreadExit` (the
 * embedded database's thread stopped under a server) and `onLocked` (PGlite only): see openDatabase.
 */
export function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'pgliteMemory' | 'pgliteThread'>>,
  owner: OwnerRole = 'command',
  hooks: {
    onConnectionError?: (error: Error) => void;
    onThreadExit?: (error: Error) => void;
    onLocked?: () => void;
  } = {},
): Promise<DatabaseHandle> {
  const { onConnectionError, onThreadExit, onLocked } = hooks;
  return config.databaseUrl
    ? openDatabase({
        kind: 'postgres',
        url: config.databaseUrl,
        ...(onConnectionError ? { onConnectionError } : {}),
      })
    : openDatabase({
        kind: 'pglite',
        dataDir: config.dataDir,
        owner,
        ...(config.pgliteMemory ? { memory: config.pgliteMemory, initInChild: true } : {}),
        ...(owner === 'server' ? { socket: ownerSocketPath(config.dataDir) } : {}),
        ...(onLocked ? { onLocked } : {}),
        // The server's statements run on the database's own thread (PGLITE_THREAD); a command's in its own.
        ...(owner === 'server' && config.pgliteThread
          ? { thread: true, ...(onThreadExit ? { onThreadExit } : {}) }
          : {}),
      });
}
