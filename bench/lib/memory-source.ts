// A StreamSource over recorded frames in memory (the bench's replay with no network in the timing): the frames
// after the cursor go through the Bluesky source's own frame reader, batched as the Bluesky source batches them
// (500 kept events or 1 s, whichever comes first); after the last frame it waits, as a live stream would, until
// the engine stops it.
import { FrameBatch } from '../../apps/server/src/integrations/bluesky/bluesky-batch';
import {
  createFrameReader,
  type FrameReader,
} from '../../apps/server/src/integrations/bluesky/bluesky-frames';
import type { StreamInterest } from '../../apps/server/src/social/stream-interest';
import type { StreamCursor, StreamSource } from '../../apps/server/src/social/stream-source';

const BATCH_EVENTS = 500;
const FLUSH_MS = 1_000;

export function memorySource(
  frames: Uint8Array[],
  seqs: number[],
  reader: FrameReader = createFrameReader(),
): StreamSource {
  return {
    name: 'recorded frames (memory)',
    replayWindowMs: Number.MAX_SAFE_INTEGER,
    gapNote: 'no gaps in a recording',
    async *read(cursor: StreamCursor | null, interest: StreamInterest, signal: AbortSignal) {
      const after = typeof cursor?.seq === 'number' ? cursor.seq : -1;
      const batch = new FrameBatch(() => performance.now());
      for (let i = 0; i < frames.length && !signal.aborted; i++) {
        const frame = frames[i];
        if (!frame || (seqs[i] ?? -1) <= after) continue;
        const pending = reader.read(frame, interest);
        const result = pending instanceof Promise ? await pending : pending;
        if (result.kind === 'events') batch.add(result, result.events);
        else if (result.kind === 'skip') throw new Error(`a recorded frame was skipped: ${result.detail}`);
        if (batch.due(BATCH_EVENTS, FLUSH_MS)) yield batch.take();
      }
      if (batch.pending) yield batch.take();
      if (signal.aborted) return;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
}
