// Issue 22: the Bluesky consumer end to end from memory: the recorded frames (bench/lib/firehose-recording.ts) through
// the Bluesky source's frame reader and the engine's stream job (jobs/stream.job.ts: the interest in memory, each
// batch stored with its cursor in one transaction by StreamIngest), on PGlite and on PostgreSQL (TEST_DATABASE_URL),
// public and programme mix, beside the frame reader alone over the same frames in the same round. Events/s = frames
// read ÷ time from the job's start until the last frame's cursor is stored. The authors' profiles, which the worker
// reads from the AppView for new authors, come from the recording's accounts (the recording's network is gone).
import { readRulesFile } from '../apps/server/src/modules/programme/programme.service';
import { createFrameReader, type FrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import { BlueskyCommitVerifier } from '../apps/server/src/integrations/bluesky/bluesky-verify';
import { StreamInterest } from '../apps/server/src/social/stream-interest';
import { programmeNamer } from '../apps/server/src/modules/mana/stream-events';
import { framesOf, loadRecording, type Recording } from './lib/firehose-recording';
import { rounds, timeLoop } from './lib/firehose-timing';
import { memorySource } from './lib/memory-source';
import { startStandInPlc } from './lib/recorded-identity';
import { openConsumer, pgUrl, type DbKind } from './lib/stream-consumer';
import { fmt, median, ratio } from './lib/stats';

/** One stored replay of `frames` into a fresh database: events/s and what it stored. */
async function stored(
  recording: Recording,
  frames: Uint8Array[],
  seqs: number[],
  kind: DbKind,
  reader?: FrameReader,
) {
  // A batch of events that concern nobody has its cursor saved at once (cursorEveryMs 0), not up to a second
  // later: the timing ends when the last frame's cursor is stored.
  const consumer = await openConsumer({
    meta: recording.meta,
    kind,
    source: memorySource(frames, seqs, reader),
    fromSeq: (seqs[0] ?? 1) - 1,
    cursorEveryMs: 0,
  });
  try {
    const last = seqs.at(-1) ?? 0;
    const started = performance.now();
    await consumer.job.start();
    await consumer.job.storedUntil((cursor) => typeof cursor.seq === 'number' && cursor.seq >= last);
    const seconds = (performance.now() - started) / 1000;
    await consumer.job.stop();
    return {
      perSecond: frames.length / seconds,
      posts: await consumer.count('posts'),
      records: await consumer.count('stream_records'),
    };
  } finally {
    await consumer.close();
  }
}

/** The frame reader alone over the same frames (no batching, no database), for the ratio. */
async function readerAlone(recording: Recording, frames: Uint8Array[]): Promise<number> {
  const rules = { ...(await readRulesFile()), officialHandles: ['benchhq'] };
  const officials = new Set([recording.meta.official.did]);
  const interest = new StreamInterest();
  interest.load({ tracked: [], people: [], officials, names: programmeNamer(rules, officials) });
  const reader = createFrameReader();
  // Repeated for at least BENCH_FIREHOSE_MIN_MS: one pass over the recording lasts a tenth of a second, so a
  // single pass swung several-fold from run to run on a loaded machine and the ratio with it.
  return timeLoop(async () => {
    for (const frame of frames) {
      const pending = reader.read(frame, interest);
      if (pending instanceof Promise) await pending;
    }
  }, frames.length);
}

export async function streamBench(): Promise<void> {
  const recording = await loadRecording((line) => console.log(line));
  const kinds: DbKind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];
  if (!pgUrl) console.log('bluesky consumer on PostgreSQL: skipped (set TEST_DATABASE_URL to measure it)');
  for (const mix of ['public', 'programme'] as const) {
    const range = recording.meta.phases[mix];
    const frames = framesOf(recording, range);
    const seqs = recording.seqs.filter((s) => s >= range.fromSeq && s <= range.toSeq);
    for (const kind of kinds) {
      const storedRates: number[] = [];
      const readerRates: number[] = [];
      let last = { posts: 0, records: 0 };
      for (let round = 0; round < rounds; round++) {
        readerRates.push(await readerAlone(recording, frames));
        const r = await stored(recording, frames, seqs, kind);
        storedRates.push(r.perSecond);
        last = r;
      }
      const ratios = storedRates.map((s, i) => ratio(s, readerRates[i] ?? Number.NaN));
      console.log(
        `bluesky consumer from memory, ${mix} mix on ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} (${frames.length} ` +
          `events; ${last.posts} posts tracked, ${last.records} records counted; ${rounds} rounds, medians): stored ` +
          `${fmt(median(storedRates), 0)} events/s = ${fmt(median(ratios))}× the frame reader alone ` +
          `(${fmt(median(readerRates), 0)} events/s)`,
      );
    }
    await verifiedStored(recording, frames, seqs, mix);
  }
}

/**
 * Verified mode (BLUESKY_VERIFY_COMMITS) end to end on PGlite: each kept commit's signature and MST proofs checked,
 * the keys resolved once from a stand-in PLC directory serving the recorded accounts' DID documents (the first
 * replay, untimed, resolves them, as a running worker would have).
 */
async function verifiedStored(recording: Recording, frames: Uint8Array[], seqs: number[], mix: string) {
  const plc = await startStandInPlc(recording.meta);
  try {
    const reader = createFrameReader({
      verifier: new BlueskyCommitVerifier({ plcUrl: plc.url, allowHttp: true }),
    });
    await stored(recording, frames, seqs, 'pglite', reader);
    const rates: number[] = [];
    for (let round = 0; round < rounds; round++)
      rates.push((await stored(recording, frames, seqs, 'pglite', reader)).perSecond);
    console.log(
      `bluesky consumer from memory, ${mix} mix on PGlite, verified mode (${rounds} rounds, medians): stored ` +
        `${fmt(median(rates), 0)} events/s [goal ≥ 3,000]`,
    );
  } finally {
    await plc.close();
  }
}
