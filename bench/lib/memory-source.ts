// Recorded subscribeRepos frames as a stream source, from memory: each frame through the Bluesky frame reader (the
// same per-frame core the relay's source runs), kept events handed to the engine in batches with the cursor after
// them, as BlueskyFirehose batches them (at most 500 kept events, or a second's worth). No socket in the timing.
import type { FrameReader } from '../../apps/server/src/integrations/bluesky/bluesky-frames';
import type { StreamInterest } from '../../apps/server/src/social/stream-interest';
import type { StreamBatch, StreamEvent, StreamSource } from '../../apps/server/src/social/stream-source';

export type MemorySource = StreamSource & {
  /** performance.now() when the engine first asked for batches, once its start (cursor, interest) was done. */
  began: number;
  /** performance.now() once every frame was read and the engine took the last batch (stored or deferred). */
  finished: Promise<number>;
  kept: number;
};

export function memorySource(
  frames: readonly Uint8Array[],
  reader: FrameReader,
  batchSize = 500,
): MemorySource {
  let finish: (at: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const source: MemorySource = {
    name: 'recorded frames',
    replayWindowMs: Number.POSITIVE_INFINITY,
    gapNote: 'recorded frames: no gap',
    finished,
    began: 0,
    kept: 0,
    async *read(_cursor, interest: StreamInterest, signal: AbortSignal): AsyncGenerator<StreamBatch> {
      source.began = performance.now();
      let events: StreamEvent[] = [];
      let seen = 0;
      let seq = 0;
      let time: string | null = null;
      let startedAt = performance.now();
      const batch = (): StreamBatch => {
        const b = {
          events,
          seen,
          cursor: { seq, ...(time ? { time } : {}) },
          cursorTime: time ? new Date(time) : null,
        };
        source.kept += events.length;
        events = [];
        seen = 0;
        startedAt = performance.now();
        return b;
      };
      for (let k = 0; k < frames.length; k++) {
        const frame = frames[k];
        if (!frame) continue;
        // Verified mode: signature checks run ahead, as BlueskyFirehose runs them (64 frames).
        if (reader.prefetch && k % 32 === 0)
          for (const next of frames.slice(k, k + 64)) reader.prefetch(next);
        const pending = reader.read(frame, interest);
        const result = pending instanceof Promise ? await pending : pending;
        if (result.kind === 'events') {
          for (const e of result.events) events.push(e);
          seen++;
          seq = result.seq;
          time = result.time ?? time;
        } else if (result.kind === 'skip' && result.seq !== null) {
          seen++;
          seq = result.seq;
        }
        if (events.length >= batchSize || performance.now() - startedAt >= 1_000) yield batch();
      }
      if (seen > 0) yield batch();
      finish(performance.now());
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
  return source;
}
