// Issue 22: reading Bluesky's event stream fast enough. On frames recorded from a real local PDS
// (bench/lib/firehose-recording.ts: deep repositories, single- and multi-op commits, deletions, identity, account
// and sync events), in one process with no network: a bare loop that only reads the frames, @atproto/sync's
// decoding path, the @atcute codecs and the @ipld ones, in interleaved rounds (medians), on the public mix and the
// programme mix; then commit signature checks (k256 and p256) for verified mode.
import { framesOf, loadRecording, type Recording } from './lib/firehose-recording';
import {
  atcuteDecoder,
  atprotoSyncDecoder,
  bareLoop,
  ipldDecoder,
  type Decoder,
} from './lib/firehose-decoders';
import {
  atcuteCachedVerifier,
  atcuteDidKeyVerifier,
  atprotoVerifier,
  p256Commits,
  signedCommits,
  type SignedCommit,
  type Verifier,
} from './lib/firehose-signatures';
import { summarise } from './lib/firehose-summary';
import { interleaved, rounds, timeLoop } from './lib/firehose-timing';
import { fmt, median, ratio } from './lib/stats';
import { frameReaderBench } from './stream-reader';

function describe(recording: Recording): void {
  const { meta } = recording;
  const all = recording.frames.reduce((n, f) => n + f.length, 0);
  console.log(
    `firehose recording ${meta.key} (${recording.frames.length} frames, ${fmt(all / 1e6, 1)} MB; generated in ` +
      `${fmt(meta.generationMs / 1000, 0)} s, ${fmt(meta.generationCpuMs / 1000, 0)} s of CPU, on ${meta.createdAt}: ${meta.params.deepAccounts} accounts of ` +
      `${meta.params.recordsEach} records, ${meta.params.lightAccounts} small ones; cached, BENCH_CACHE_DIR)`,
  );
  for (const mix of ['public', 'programme'] as const) {
    const s = summarise(framesOf(recording, meta.phases[mix]), meta);
    const kinds = Object.entries(s.kinds)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    console.log(
      `  ${mix} mix: ${s.frames} frames, ${fmt(s.bytes / 1e6, 2)} MB (${fmt(s.bytes / s.frames, 0)} B/frame; ${kinds}); ` +
        `${fmt(s.blocksPerCommit, 1)} blocks and ${fmt(s.opsPerCommit, 2)} ops per commit, ${s.multiOpCommits} multi-op ` +
        `commits, ${s.deletes} deletes; ${fmt((100 * (s.frames - s.concerning)) / s.frames, 1)} % of events concern no tracked post`,
    );
  }
}

async function decoders(recording: Recording): Promise<void> {
  const subjects: Decoder[] = [
    bareLoop,
    await atprotoSyncDecoder(),
    atcuteDecoder({ frameOnly: true }),
    atcuteDecoder(),
    atcuteDecoder({ everyBlock: true }),
    ipldDecoder,
  ];
  for (const mix of ['public', 'programme'] as const) {
    const frames = framesOf(recording, recording.meta.phases[mix]);
    // The same records must come out of every decoder that reads them (a check that each read the whole stream).
    const counts = await Promise.all(subjects.map((d) => d.read(frames)));
    const expected = counts[1];
    counts.forEach((n, i) => {
      if (i >= 3 && n !== expected)
        throw new Error(`${subjects[i]?.name} read ${n} records, @atproto/sync ${expected}`);
    });
    const rates = await interleaved(subjects, (d) => timeLoop(() => d.read(frames), frames.length));
    const sync = rates[1] ?? [];
    console.log(
      `  decoding the ${mix} mix (${frames.length} events, ${expected} programme records; ${rounds} rounds, medians):`,
    );
    subjects.forEach((d, i) => {
      const r = rates[i] ?? [];
      const vsSync = median(r.map((v, k) => ratio(v, sync[k] ?? Number.NaN)));
      console.log(`    ${d.name}: ${fmt(median(r), 0)} events/s (${fmt(vsSync)}× @atproto/sync)`);
    });
  }
}

async function signatures(recording: Recording): Promise<void> {
  const frames = framesOf(recording, recording.meta.phases.public);
  const k256 = signedCommits(frames, recording.meta.signingKeys).slice(0, 400);
  const p256 = await p256Commits(k256);
  const verifiers: Verifier[] = [atprotoVerifier, atcuteDidKeyVerifier, atcuteCachedVerifier()];
  for (const [curve, commits] of [
    ['k256', k256],
    ['p256', p256],
  ] as Array<[string, SignedCommit[]]>) {
    for (const v of verifiers) {
      for (const c of commits.slice(0, 20))
        if (!(await v.verify(c))) throw new Error(`${v.name}: ${curve} failed`);
    }
    const rates = await interleaved(verifiers, (v) =>
      timeLoop(async () => {
        for (const c of commits) await v.verify(c);
      }, commits.length),
    );
    const base = rates[0] ?? [];
    console.log(
      `  commit signature checks, ${curve} (${commits.length} recorded commits; ${rounds} rounds, medians):`,
    );
    verifiers.forEach((v, i) => {
      const r = rates[i] ?? [];
      const vs = median(r.map((x, k) => ratio(x, base[k] ?? Number.NaN)));
      console.log(`    ${v.name}: ${fmt(median(r), 0)} commits/s (${fmt(vs)}× @atproto/crypto)`);
    });
  }
}

export async function firehoseDecodersBench(): Promise<void> {
  const recording = await loadRecording((line) => console.log(line));
  describe(recording);
  await decoders(recording);
  await signatures(recording);
  await frameReaderBench(recording);
}
