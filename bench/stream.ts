// Issue 22: the Bluesky consumer end to end from memory: the recorded frames (bench/lib/firehose-recording.ts) through
// the Bluesky source's frame reader and the engine's stream job (jobs/stream.job.ts: the interest in memory, each
// batch stored with its cursor in one transaction by StreamIngest), on PGlite and on PostgreSQL (TEST_DATABASE_URL),
// public and programme mix, beside the frame reader alone over the same frames in the same round. Events/s = frames
// read ÷ time from the job's start until the last frame's cursor is stored. The authors' profiles, which the worker
// reads from the AppView for new authors, come from the recording's accounts (the recording's network is gone).
import pino from 'pino';
import { systemClock } from '../apps/server/src/clock';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { StreamJob } from '../apps/server/src/jobs/stream.job';
import { saveCursor } from '../apps/server/src/modules/mana/ingest-state.repository';
import { STREAM_JOB, StreamIngest } from '../apps/server/src/modules/mana/stream-ingest.service';
import { readRulesFile, saveRules } from '../apps/server/src/modules/programme/programme.service';
import type { SocialAuthor } from '../apps/server/src/social/social-network';
import { createScratchSchema } from '../apps/server/src/test/postgres-schema';
import { createFrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import { StreamInterest } from '../apps/server/src/social/stream-interest';
import { programmeNamer } from '../apps/server/src/modules/mana/stream-events';
import { framesOf, loadRecording, type Recording } from './lib/firehose-recording';
import { rounds } from './lib/firehose-timing';
import { memorySource } from './lib/memory-source';
import { fmt, median, ratio } from './lib/stats';

type Kind = 'pglite' | 'postgres';
const pgUrl = process.env.TEST_DATABASE_URL;

async function open(kind: Kind): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  if (kind === 'pglite')
    return { database: await openDatabase({ kind: 'pglite' }), drop: async () => undefined };
  const schema = await createScratchSchema(pgUrl ?? '', 'bench-stream');
  return {
    database: await openDatabase({ kind: 'postgres', url: pgUrl ?? '', schema: schema.name }),
    drop: schema.drop,
  };
}

/** One stored replay of `frames` into a fresh database: events/s and what it stored. */
async function stored(recording: Recording, frames: Uint8Array[], seqs: number[], kind: Kind) {
  const { meta } = recording;
  const { database, drop } = await open(kind);
  try {
    const db = database.db;
    await migrateToLatest(db);
    const official = meta.official.handle.split('.')[0] ?? 'benchhq';
    await saveRules(db, { ...(await readRulesFile()), officialHandles: [official] }, 'bench');
    await saveCursor(db, STREAM_JOB, { seq: (seqs[0] ?? 1) - 1 }, new Date());
    const profile = (did: string, handle: string): SocialAuthor => ({
      networkUserId: did,
      handle,
      displayName: handle,
      avatarUrl: null,
      createdAt: null,
      followers: null,
      protected: false,
    });
    const byDid = new Map(meta.accounts.map((a) => [a.did as string, profile(a.did, a.handle)]));
    const log = pino({ level: process.env.BENCH_LOG ?? 'warn' });
    const ingest = new StreamIngest({
      db,
      network: {
        authorByHandle: async (handle) =>
          handle === official ? (byDid.get(meta.official.did) ?? null) : null,
      },
      authorsOf: async (ids) => ids.flatMap((id) => byDid.get(id) ?? []),
      log,
    });
    // A batch of events that concern nobody has its cursor saved at once (cursorEveryMs 0), not up to a second
    // later: the timing ends when the last frame's cursor is stored.
    const job = new StreamJob({
      db,
      ingest,
      source: memorySource(frames, seqs),
      log,
      clock: systemClock,
      cursorEveryMs: 0,
    });
    const last = seqs.at(-1) ?? 0;
    const started = performance.now();
    await job.start();
    await job.storedUntil((cursor) => typeof cursor.seq === 'number' && cursor.seq >= last);
    const seconds = (performance.now() - started) / 1000;
    await job.stop();
    const count = async (table: 'stream_records' | 'posts') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      perSecond: frames.length / seconds,
      posts: await count('posts'),
      records: await count('stream_records'),
    };
  } finally {
    await database.close();
    await drop();
  }
}

/** The frame reader alone over the same frames (no batching, no database), for the ratio. */
async function readerAlone(recording: Recording, frames: Uint8Array[]): Promise<number> {
  const rules = { ...(await readRulesFile()), officialHandles: ['benchhq'] };
  const officials = new Set([recording.meta.official.did]);
  const interest = new StreamInterest();
  interest.load({ tracked: [], people: [], officials, names: programmeNamer(rules, officials) });
  const reader = createFrameReader();
  const started = performance.now();
  for (const frame of frames) {
    const pending = reader.read(frame, interest);
    if (pending instanceof Promise) await pending;
  }
  return frames.length / ((performance.now() - started) / 1000);
}

export async function streamBench(): Promise<void> {
  const recording = await loadRecording((line) => console.log(line));
  const kinds: Kind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];
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
  }
}
