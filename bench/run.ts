// `npm run bench`: figures as ratios measured side by side in one run, medians of several rounds.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { leaderboardBench } from './leaderboard';
import { recordsBench } from './records';
import { totalsBench } from './totals';
import { ledgerBench } from './ledger';
import { ingestBench } from './ingest';
import { streamBench } from './stream';
import { firehoseDecodersBench } from './stream-decoders';
import { liveStreamBench } from './stream-live';
import { loadRecording } from './lib/firehose-recording';
import { clusterBench } from './cluster';
import { asUsersGetIt } from './as-users-get-it';
import { appStreamBench } from './stream-app';
import { distinctStreamBench } from './stream-distinct';
import { faultsBench } from './faults';
import { latencyVsBare } from './lib/latency';
import { sideBySide } from './lib/side-by-side';
import { repoRoot, startBenchServer, timeToFirst200 } from './lib/spawn-server';
import { benchRounds, fmt, median, ratio } from './lib/stats';
import { firstLeaderboardRow } from './web-first-row';
import { webBudget } from './web-budget';
import { verifierBench } from './verifier';
import { writeFormsBench } from './write-forms';

const rounds = benchRounds();
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

async function announcementsThroughput(): Promise<void> {
  const server = await startBenchServer();
  try {
    const r = await sideBySide(
      `${server.origin}/api/public/announcements?page=1&limit=50`,
      `${server.origin}/bench/bare`,
      {
        rounds,
        seconds,
      },
    );
    console.log(
      `announcements vs bare JSON route (autocannon, 10 connections, ${rounds}×${seconds}s): ` +
        `median ratio ${fmt(r.ratio)}× (announcements ${fmt(r.targetRps, 0)} req/s, p50 ${r.targetP50} ms, p99 ${r.targetP99} ms; bare ${fmt(r.bareRps, 0)} req/s)`,
    );
  } finally {
    await server.stop();
  }
}

async function simulatedX(): Promise<void> {
  const server = await startBenchServer({}, 'bench/lib/sim-bench-server.ts');
  const ready = server.ready as { posts: number; buildMs: number; ids: string[] };
  const headers = { authorization: 'Bearer bench' };
  try {
    const search = await sideBySide(
      `${server.origin}/2/tweets/search/recent?query=${encodeURIComponent('#ManaBoard -is:retweet')}&max_results=100&tweet.fields=public_metrics,created_at,author_id,referenced_tweets&expansions=author_id&user.fields=created_at,public_metrics`,
      `${server.origin}/bench/bare`,
      { rounds, seconds, headers },
    );
    const lookup = await sideBySide(
      `${server.origin}/2/tweets?ids=${ready.ids.join(',')}&tweet.fields=public_metrics,created_at,author_id`,
      `${server.origin}/bench/bare`,
      { rounds, seconds, headers },
    );
    console.log(
      `simulated X, ${ready.posts} posts (world built in ${fmt(ready.buildMs / 1000)} s): ` +
        `search pages of 100 ${fmt(search.targetRps, 0)}/s (${fmt(search.ratio)}× of its bare route), ` +
        `lookup batches of 100 ids ${fmt(lookup.targetRps, 0)}/s (${fmt(lookup.ratio)}× of bare, ${fmt(lookup.bareRps, 0)} req/s)`,
    );
  } finally {
    await server.stop();
  }
}

async function referralLatency(): Promise<void> {
  const server = await startBenchServer({}, 'bench/lib/referral-bench-server.ts');
  const { referee } = server.ready as { referee: Record<string, string> };
  const bare = { url: `${server.origin}/bench/bare`, headers: referee };
  try {
    const apply = await latencyVsBare(
      {
        url: `${server.origin}/referrals/apply`,
        method: 'POST',
        headers: referee,
        body: JSON.stringify({ referrerHandle: '@bench_referrer' }),
        status: 400,
      },
      bare,
      { rounds, seconds },
    );
    const account = await latencyVsBare({ url: `${server.origin}/me/account`, headers: referee }, bare, {
      rounds,
      seconds,
    });
    console.log(
      `referral service latency vs bare route (10 connections, ${rounds}×${seconds}s, medians): ` +
        `POST /referrals/apply (every rule checked) p50 ${fmt(apply.p50)} ms (${fmt(apply.p50Ratio)}× bare), p99 ${fmt(apply.p99)} ms (${fmt(apply.p99Ratio)}×); ` +
        `GET /me/account p50 ${fmt(account.p50)} ms (${fmt(account.p50Ratio)}×), p99 ${fmt(account.p99)} ms (${fmt(account.p99Ratio)}×)`,
    );
  } finally {
    await server.stop();
  }
}

async function coldStart(): Promise<void> {
  const starts: number[] = [];
  const restarts: number[] = [];
  // The built server as `npm start` runs it (scripts/run.mjs; `npm run bench` builds first), without npm itself.
  const server = [process.execPath, path.join(repoRoot, 'scripts/run.mjs'), 'main'];
  for (let round = 0; round < rounds; round++) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-cold-'));
    try {
      starts.push(await timeToFirst200(server, { DATA_DIR: dataDir }));
      restarts.push(await timeToFirst200(server, { DATA_DIR: dataDir }));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-cold-'));
  let full: number;
  try {
    full = await timeToFirst200(['npm', 'start'], { DATA_DIR: dataDir });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  console.log(
    `cold start, empty data dir → first 200 of /: server ${fmt(median(starts) / 1000)} s (median of ${rounds}); ` +
      `restart on the same data ${fmt(median(restarts) / 1000)} s (cold is ${fmt(ratio(median(starts), median(restarts)))}× a restart); ` +
      `whole \`npm start\` on the existing build ${fmt(full / 1000)} s`,
  );
}

/** The Bluesky sections need the recorded firehose: made at first (a local PDS, better-sqlite3 on Node 24). */
async function withFirehose(section: string, run: () => Promise<void>): Promise<void> {
  try {
    await loadRecording((line) => console.log(line));
  } catch (error) {
    console.log(
      `${section}: skipped (the firehose could not be recorded: ${String(error)}; run npm install again)`,
    );
    return;
  }
  await run();
}

console.log(`Manaboard benchmarks — Node ${process.version}, ${os.cpus().length} cores`);
const only = process.argv[2];
if (!only || only === 'user') await asUsersGetIt();
if (!only || only === 'announcements') await announcementsThroughput();
if (!only || only === 'x-sim') await simulatedX();
if (!only || only === 'referrals') await referralLatency();
if (!only || only === 'cold-start') await coldStart();
if (!only || only === 'web-first-row') await firstLeaderboardRow();
if (!only || only === 'leaderboard-pglite') await leaderboardBench('pglite');
if (!only || only === 'leaderboard-pg') await leaderboardBench('postgres');
if (!only || only === 'records') await recordsBench('pglite');
if (!only || only === 'records-pg') await recordsBench('postgres');
if (!only || only === 'ingest') await ingestBench();
if (!only || only === 'totals') await totalsBench('pglite');
if (!only || only === 'totals-pg') await totalsBench('postgres');
if (!only || only === 'ledger') await ledgerBench();
if (!only || only === 'web-budget') await webBudget();
if (!only || only === 'cluster') await clusterBench();
if (!only || only === 'bluesky-stream') await withFirehose('bluesky-stream', streamBench);
if (!only || only === 'bluesky-stream' || only === 'bluesky-decoders')
  await withFirehose('bluesky-decoders', firehoseDecodersBench);
if (!only || only === 'bluesky-stream' || only === 'bluesky-live')
  await withFirehose('bluesky-live', async () => liveStreamBench(await loadRecording()));
if (!only || only === 'bluesky-app') await withFirehose('bluesky-app', appStreamBench);
if (!only || only === 'verifier') await verifierBench();
// Issue 31: `npm start` on Bluesky through a generated stream of distinct traffic (stream-distinct.ts).
if (!only || only === 'stream-distinct') await distinctStreamBench();
// Issue 32: faults at full speed with a backlog (faults.ts). Only when asked: it mounts a tmpfs and runs a PostgreSQL
// cluster of its own (root, PostgreSQL's binaries), and takes several minutes. `npm run bench faults [fault …]`.
if (only === 'faults') await faultsBench(process.argv.slice(3));
// Issue 33: what writing a stored answer costs Node as a string or as bytes, in instructions (write-forms.ts). Only
// when asked: several minutes under valgrind. `npm run bench write-forms`.
if (only === 'write-forms') await writeFormsBench();
