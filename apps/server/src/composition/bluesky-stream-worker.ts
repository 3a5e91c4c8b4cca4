/**
 * The entry of the Bluesky stream's worker thread (issue 31), started by integrations/bluesky/bluesky-stream-thread.ts
 * and built beside the server's bundle as bluesky-stream-worker.js (scripts/build.mjs). A composition root like
 * bluesky-streaming.ts: it gives the adapter's thread (bluesky-stream-serve.ts) the engine's programme namer.
 *
 * The thread compiles its own copy of every module it imports, so its graph holds no zod, contract schemas, config,
 * Fastify, Kysely or pino (issue 33): the namer comes from stream-namer.ts, not stream-events.ts, and
 * apps/server/src/composition/worker-graphs.test.ts fails if any of them comes back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveStreamThread } from '../integrations/bluesky/bluesky-stream-serve';
import type { WorkerStart } from '../integrations/bluesky/bluesky-stream-protocol';
import { namerOf } from '../modules/mana/stream-namer';

if (!parentPort) throw new Error('bluesky-stream-worker.ts runs as a worker thread');
serveStreamThread(parentPort, workerData as WorkerStart, namerOf);
