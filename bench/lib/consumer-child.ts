// The stream consumer's own process (consumer-process.ts starts it): the worker's Bluesky source (BlueskyFirehose)
// reading a relay, the engine's stream job storing on a fresh PGlite, nothing else loaded, so its resident memory is
// the consumer's. Out: {ready}, then one {progress} per stored batch or cursor-only save.
import { BlueskyFirehose } from '../../apps/server/src/integrations/bluesky/bluesky-firehose';
import { createFrameReader } from '../../apps/server/src/integrations/bluesky/bluesky-frames';
import { loadRecording } from './firehose-recording';
import { benchLog, openConsumer } from './stream-consumer';

const options = JSON.parse(process.env.BENCH_CONSUMER_OPTIONS ?? '{}') as {
  relayUrl: string;
  fromSeq?: number;
};
const recording = await loadRecording();
const consumer = await openConsumer({
  meta: recording.meta,
  kind: 'pglite',
  source: new BlueskyFirehose({
    relayUrl: options.relayUrl,
    log: benchLog,
    reader: createFrameReader(),
    gapNote: 'the bench has no gaps',
  }),
  ...(options.fromSeq !== undefined ? { fromSeq: options.fromSeq } : {}),
  // A batch stored while stopping reports after the parent has let go: nobody to tell.
  onProgress: (report) =>
    process.connected &&
    process.send?.({
      progress: {
        at: report.at.getTime(),
        seen: report.seen,
        cursorTime: report.cursorTime?.getTime() ?? null,
      },
    }),
});
process.on('disconnect', () => {
  void consumer.job
    .stop()
    .then(() => consumer.close())
    .then(() => process.exit(0));
});
// (The recording's frames, ~16 MB, stay loaded here too: the same in every sample of this process's memory.)
await consumer.job.start();
process.send?.({ ready: true });
