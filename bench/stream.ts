// The Bluesky event consumer (issue 22): events per second the worker's whole consumer stores, replayed from memory
// on frames recorded from a real local PDS (bench/lib/firehose-recording.ts: deep repositories, multi-op commits,
// deletions, identity and account events), on one core, no network in the timing: each frame through the Bluesky
// frame reader (filter before decode, @atcute), kept events through the engine's stream job (jobs/stream.job.ts:
// one transaction per batch with its cursor, cursor-only saves at most once a second) into PGlite and PostgreSQL;
// beside a bare loop that only reads the frames and decoding alone (the programme's records, no filter, no
// database), in interleaved rounds (medians). Verified mode (BLUESKY_VERIFY_COMMITS=true: each commit's signature
// checked with its account's recorded key, each op proven from the signed tree) is reported beside, on PGlite.
import pino from 'pino';
import { systemClock } from '../apps/server/src/integrations/x/clock';
import { createFrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import { BlueskyCommitVerifier } from '../apps/server/src/integrations/bluesky/bluesky-verify';
import { StreamJob } from '../apps/server/src/jobs/stream.job';
import { StreamIngest } from '../apps/server/src/modules/mana/stream-ingest.service';
import { readRulesFile, saveRules } from '../apps/server/src/modules/programme/programme.service';
import { openTestDatabase, type TestDatabaseKind } from '../apps/server/src/test/test-database';
import { testEnv } from '../apps/server/src/config/test-env';
import { atcuteDecoder, bareLoop } from './lib/firehose-decoders';
import { framesOf, loadRecording, type Recording } from './lib/firehose-recording';
import { memorySource } from './lib/memory-source';
import { benchRounds, fmt, median, ratio } from './lib/stats';

const rounds = Math.max(benchRounds(), 3);
const log = pino({ level: 'warn' });

type Subject = { name: string; run: (mix: Mix) => Promise<{ perSecond: number; note?: string }> };
type Mix = 'public' | 'programme';

/** The frames of a mix, and of the fill before it (replayed untimed first, so the programme knows its posts). */
function framesFor(recording: Recording, mix: Mix) {
  const { phases } = recording.meta;
  const before = mix === 'public' ? [phases.fill] : [phases.fill, phases.public];
  return {
    setup: before.flatMap((range) => framesOf(recording, range)),
    timed: framesOf(recording, phases[mix]),
  };
}

/** The whole consumer on a fresh database: setup frames untimed, then the mix's frames timed. */
async function consumer(recording: Recording, mix: Mix, kind: TestDatabaseKind, verified: boolean) {
  const database = await openTestDatabase(kind);
  try {
    const { official } = recording.meta;
    const rules = { ...(await readRulesFile()), officialHandles: [official.handle] };
    await saveRules(database.db, rules, 'bench');
    const ingest = new StreamIngest({
      db: database.db,
      network: {
        authorByHandle: async (handle) =>
          handle === official.handle
            ? {
                networkUserId: official.did,
                handle,
                displayName: handle,
                avatarUrl: null,
                createdAt: null,
                followers: null,
                protected: false,
              }
            : null,
      },
      // Profiles are a network call in production (the AppView); here authors are stored by id.
      authorsOf: () => Promise.resolve([]),
      log,
    });
    const keys = recording.meta.signingKeys;
    const reader = () =>
      createFrameReader(
        verified
          ? {
              verifier: new BlueskyCommitVerifier({ plcUrl: 'http://unused', allowHttp: false }, (did) =>
                keys[did] ? Promise.resolve(keys[did]) : Promise.reject(new Error(`no key for ${did}`)),
              ),
            }
          : {},
      );
    const run = async (frames: Uint8Array[]) => {
      const source = memorySource(frames, reader());
      const job = new StreamJob({ db: database.db, ingest, source, log, clock: systemClock });
      await job.start();
      const finished = await source.finished;
      await job.stop();
      return { seconds: (finished - source.began) / 1000, kept: source.kept };
    };
    const { setup, timed } = framesFor(recording, mix);
    await run(setup);
    const { seconds, kept } = await run(timed);
    return { perSecond: timed.length / seconds, note: `${kept} kept` };
  } finally {
    await database.close();
  }
}

const decodeOnly = atcuteDecoder();

function subjects(recording: Recording): Subject[] {
  const timedLoop = async (read: (frames: Uint8Array[]) => unknown, frames: Uint8Array[]) => {
    let reps = 0;
    const started = performance.now();
    do {
      await read(frames);
      reps++;
    } while (performance.now() - started < 400);
    return { perSecond: (frames.length * reps) / ((performance.now() - started) / 1000) };
  };
  const list: Subject[] = [
    {
      name: 'bare loop (frames only)',
      run: (mix) => timedLoop(bareLoop.read, framesFor(recording, mix).timed),
    },
    {
      name: 'decoding alone (@atcute, every programme record, no filter)',
      run: (mix) => timedLoop(decodeOnly.read, framesFor(recording, mix).timed),
    },
    { name: 'whole consumer, PGlite', run: (mix) => consumer(recording, mix, 'pglite', false) },
  ];
  if (testEnv.databaseUrl)
    list.push({
      name: 'whole consumer, PostgreSQL',
      run: (mix) => consumer(recording, mix, 'postgres', false),
    });
  list.push({
    name: 'whole consumer, verified mode, PGlite',
    run: (mix) => consumer(recording, mix, 'pglite', true),
  });
  return list;
}

export async function streamBench(): Promise<void> {
  const recording = await loadRecording((line) => console.log(line));
  const list = subjects(recording);
  for (const mix of ['public', 'programme'] as const) {
    const rates: number[][] = list.map(() => []);
    const notes: string[] = list.map(() => '');
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < list.length; i++) {
        const subject = list[i];
        if (!subject) continue;
        const result = await subject.run(mix);
        rates[i]?.push(result.perSecond);
        notes[i] = result.note ?? '';
      }
    }
    const frames = framesFor(recording, mix).timed.length;
    const decoding = rates[1] ?? [];
    console.log(
      `bluesky event consumer, ${mix} mix (${frames} recorded events replayed from memory, one core; ${rounds} rounds, medians):`,
    );
    list.forEach((s, i) => {
      const r = rates[i] ?? [];
      const vs = median(r.map((v, k) => ratio(v, decoding[k] ?? Number.NaN)));
      console.log(
        `  ${s.name}: ${fmt(median(r), 0)} events/s (${fmt(vs)}× decoding alone)${notes[i] ? `; ${notes[i]}` : ''}`,
      );
    });
  }
}
