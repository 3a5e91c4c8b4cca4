// A StreamSource over recorded frames in memory (the bench's replay with no network in the timing): the frames
// after the cursor go through the Bluesky source's own frame reader, batched as the Bluesky source batches them
// (500 kept events or 1 s, whichever comes first); after the last frame it waits, as a live stream would, until
// the engine stops it.
import { createFrameReader } from '../../apps/server/src/integrations/bluesky/bluesky-frames';
import type { StreamInterest } from '../../apps/server/src/social/stream-interest';
import type {
  StreamBatch,
  StreamCursor,
  StreamEvent,
  StreamSource,
} from '../../apps/server/src/social/stream-source';

const BATCH_EVENTS = 500;
const FLUSH_MS = 1_000;

export function memorySource(frames: Uint8Array[], seqs: number[]): StreamSource {
  const reader = createFrameReader();
  return {
    name: 'recorded frames (memory)',
    replayWindowMs: Number.MAX_SAFE_INTEGER,
    gapNote: 'no gaps in a recording',
    async *read(cursor: StreamCursor | null, interest: StreamInterest, signal: AbortSignal) {
      const after = typeof cursor?.seq === 'number' ? cursor.seq : -1;
      let events: StreamEvent[] = [];
      let seen = 0;
      let last = null as { seq: number; time: string | null } | null;
      let startedAt = performance.now();
      const batch = (): StreamBatch => {
        const b: StreamBatch = {
          events,
          cursor: last?.time ? { seq: last.seq, time: last.time } : { seq: last?.seq },
          cursorTime: last?.time ? new Date(last.time) : null,
          seen,
        };
        events = [];
        seen = 0;
        startedAt = performance.now();
        return b;
      };
      for (let i = 0; i < frames.length && !signal.aborted; i++) {
        const frame = frames[i];
        if (!frame || (seqs[i] ?? -1) <= after) continue;
        const pending = reader.read(frame, interest);
        const result = pending instanceof Promise ? await pending : pending;
        if (result.kind === 'events') {
          seen++;
          last = { seq: result.seq, time: result.time ?? last?.time ?? null };
          for (const e of result.events) events.push(e);
        } else if (result.kind === 'skip') throw new Error(`a recorded frame was skipped: ${result.detail}`);
        if (events.length >= BATCH_EVENTS || performance.now() - startedAt >= FLUSH_MS) yield batch();
      }
      if (seen > 0) yield batch();
      if (signal.aborted) return;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
}
