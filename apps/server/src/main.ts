import { ConfigError, loadConfig } from './config/config';
import { openConfiguredDatabase } from './db/open-from-config';
import { DatabaseInUseError } from './db/owner-lock';
import { limitHeapGrowth, saveHeapMemory } from './lib/heap-growth';
import { fixMmapThreshold } from './lib/malloc-threshold';
import { markPhase } from './lib/start-phases';
import { pinTickShape } from './lib/tick-shape';
import type { DatabaseHandlers, Role } from './composition/serve';

/** `npm start` runs both; `npm run start:api` / `start:worker` pass `api` / `worker` to run one of them. */
function roleOf(args: string[]): Role {
  const role = args[0] ?? 'all';
  if (role === 'all' || role === 'api' || role === 'worker') return role;
  throw new ConfigError(`Unknown role "${role}": use api, worker, or nothing for both`);
}

/**
 * Starts the server: configuration, then the database opening while the rest of the server loads (serve.ts:
 * migrations, demo content, the API and/or the worker).
 */
async function main(): Promise<void> {
  // Before anything else: no full collection may forget the shape of Node's nextTick entries (tick-shape.ts).
  pinTickShape();
  markPhase('entry loaded');
  const role = roleOf(process.argv.slice(2));
  const config = loadConfig();
  // Before the database's and the stream's threads start, though V8 reads it at each collection (heap-growth.ts).
  limitHeapGrowth(config.heapGrowingPercent);
  saveHeapMemory(config.memorySaver);
  markPhase('config');
  if (role !== 'all' && !config.databaseUrl) {
    // Two processes on one PGlite directory would each work on their own copy (issue 15).
    throw new ConfigError(
      `npm run start:${role} needs PostgreSQL (DATABASE_URL): the embedded database has one owner, so run the API and the worker in one process with npm start.`,
    );
  }
  // Before the embedded database opens: V8's optimising of its WebAssembly is the largest malloc of the process's
  // life, and glibc must give those blocks back (malloc-threshold.ts).
  if (config.fixMmapThreshold) await fixMmapThreshold();
  const handlers: DatabaseHandlers = {
    // A PostgreSQL connection that dies is logged, never fatal; the logger exists only once the app does.
    connectionLost: (error) => console.error(`PostgreSQL connection lost: ${error.message}`),
    // The embedded database's own thread stopping is fatal: every statement would fail from then on. What was
    // committed is on disk; the server stops so that whoever runs it starts it again.
    databaseStopped: (error) => {
      console.error(`${error.message}: stopping`);
      process.exit(1);
    },
  };
  // The database opens (on its own thread, for the embedded one) while the rest of the server's code loads: each took
  // about half a second (issue 33). The code is loaded once the data directory's lock is held and the thread told to
  // open: the lock's file operations would otherwise wait for the loading's turns of the event loop.
  let locked = () => {};
  const lockHeld = new Promise<void>((resolve) => (locked = resolve));
  const opening = openConfiguredDatabase(config, 'server', {
    onConnectionError: (error) => handlers.connectionLost(error),
    onThreadExit: (error) => handlers.databaseStopped(error),
    onLocked: () => locked(),
  });
  // Its failure is the start's, once the code has loaded.
  opening.catch(() => undefined);
  await Promise.race([
    lockHeld,
    opening.then(
      () => undefined,
      () => undefined,
    ),
  ]);
  const { serve } = await import('./composition/serve');
  markPhase('modules loaded');
  const database = await opening;
  markPhase('database opened');
  await serve(role, config, database, handlers);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseInUseError) {
    console.error(error.message);
  } else {
    console.error('Manaboard failed to start:', error);
  }
  process.exit(1);
});
