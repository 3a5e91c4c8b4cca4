// Issue 22: the Bluesky source's per-frame core (integrations/bluesky/bluesky-frames.ts: filter before decode, the
// programme's interest in memory) replayed from memory over the recorded frames, public and programme mix, beside a
// bare loop over the same frames and decoding alone (the same @atcute codecs, no filter): events/s on one core,
// trusting the relay and in verified mode (BLUESKY_VERIFY_COMMITS: each commit's signature and its ops' MST proofs).
// Verified mode resolves each account's key once from a PLC directory: here a stand-in serving the recorded
// accounts' DID documents (their real signing keys), since the recording's network is gone.
import { createFrameReader, type FrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import { startStandInPlc } from './lib/recorded-identity';
import { BlueskyCommitVerifier } from '../apps/server/src/integrations/bluesky/bluesky-verify';
import { programmeNamer } from '../apps/server/src/modules/mana/stream-events';
import { readRulesFile } from '../apps/server/src/modules/programme/programme.service';
import { StreamInterest } from '../apps/server/src/social/stream-interest';
import { atcuteDecoder, bareLoop } from './lib/firehose-decoders';
import { framesOf, type Recording } from './lib/firehose-recording';
import { interleaved, rounds, timeLoop } from './lib/firehose-timing';
import { fmt, median, ratio } from './lib/stats';

type Subject = { name: string; run: (frames: Uint8Array[]) => Promise<number> | number };

async function readerSubject(
  name: string,
  reader: FrameReader,
  interest: () => StreamInterest,
): Promise<Subject> {
  return {
    name,
    run: async (frames) => {
      const mine = interest();
      let kept = 0;
      for (const frame of frames) {
        const pending = reader.read(frame, mine);
        const result = pending instanceof Promise ? await pending : pending;
        if (result.kind === 'events') kept += result.events.length;
        else if (result.kind === 'skip') throw new Error(`a recorded frame was skipped: ${result.detail}`);
      }
      return kept;
    },
  };
}

export async function frameReaderBench(recording: Recording): Promise<void> {
  const { meta } = recording;
  const rules = {
    ...(await readRulesFile()),
    officialHandles: [meta.official.handle.split('.')[0] ?? 'benchhq'],
  };
  const officials = new Set([meta.official.did]);
  // What the programme knows when the mix begins: its tracked posts and official; posts naming it join as they pass.
  const interest = () => {
    const fresh = new StreamInterest();
    fresh.load({
      tracked: meta.trackedPosts,
      people: [],
      officials,
      names: programmeNamer(rules, officials),
    });
    return fresh;
  };
  const plc = await startStandInPlc(recording.meta);
  try {
    const verifier = new BlueskyCommitVerifier({ plcUrl: plc.url, allowHttp: true });
    const decoding = atcuteDecoder();
    const subjects: Subject[] = [
      { name: 'bare loop', run: bareLoop.read },
      { name: 'decoding alone (@atcute, the programme ops’ records)', run: decoding.read },
      await readerSubject('frame reader, relay trusted (the default)', createFrameReader(), interest),
      await readerSubject(
        'frame reader, verified (BLUESKY_VERIFY_COMMITS)',
        createFrameReader({ verifier }),
        interest,
      ),
    ];
    for (const mix of ['public', 'programme'] as const) {
      const frames = framesOf(recording, meta.phases[mix]);
      const kept = await subjects[2]?.run(frames);
      await subjects[3]?.run(frames); // the verifier's keys resolved once, before the timing
      const rates = await interleaved(subjects, (s) => timeLoop(() => s.run(frames), frames.length));
      const decode = rates[1] ?? [];
      console.log(
        `  the Bluesky frame reader on the ${mix} mix (${frames.length} events, ${kept ?? 0} kept for the engine; ` +
          `${rounds} rounds, medians, from memory, one core):`,
      );
      subjects.forEach((s, i) => {
        const r = rates[i] ?? [];
        const vs = median(r.map((x, k) => ratio(x, decode[k] ?? Number.NaN)));
        console.log(`    ${s.name}: ${fmt(median(r), 0)} events/s (${fmt(vs)}× decoding alone)`);
      });
    }
  } finally {
    await plc.close();
  }
}
