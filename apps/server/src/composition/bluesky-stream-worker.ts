/**
 * The entry of the Bluesky stream's worker thread (issue 31), started by integrations/bluesky/bluesky-stream-thread.ts
 * and built beside the server's bundle as bluesky-stream-worker.js (scripts/build.mjs). A composition root like
 * bluesky-streaming.ts: it gives the adapter's thread (bluesky-stream-serve.ts) the engine's programme namer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveStreamThread } from '../integrations/bluesky/bluesky-stream-serve';
import type { WorkerStart } from '../integrations/bluesky/bluesky-stream-protocol';
import { namerOf } from '../modules/mana/stream-events';

if (!parentPort) throw new Error('bluesky-stream-worker.ts runs as a worker thread');
serveStreamThread(parentPort, workerData as WorkerStart, namerOf);
