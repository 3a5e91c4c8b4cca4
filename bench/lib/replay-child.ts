// The replay server's own process (replay-process.ts starts it): the recorded mix served live over subscribeRepos,
// and, on the parent's word, a like of a given post injected as the next event (a like the bench then times to the
// board). Messages: in {inject: {subjectUri, liker}}; out {url, appviewUrl} once listening, {injected: {seq,
// producedAt}}. The recording's network is gone, so beside the relay it answers the few AppView reads the worker
// makes while streaming, from the recording's accounts: profiles and handles (app.bsky.actor.getProfile(s),
// com.atproto.identity.resolveHandle), and the PLC directory's DID documents; getPosts answers no post (the
// refresh's reads).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toBytes } from '@atcute/cbor';
import * as CID from '@atcute/cid';
import { block, car, frame } from '../../apps/server/src/integrations/bluesky/bluesky-frames.test-support';
import { startReplayServer } from '../../apps/server/src/test/subscribe-repos-replay';
import { framesOf, loadRecording } from './firehose-recording';
import { recordedDidDocument } from './recorded-identity';

type Options = { mix: 'public' | 'programme'; rate: number; backlogSeconds: number };
type Inject = { subjectUri: string; subjectCid: string; liker: string; rkey: string };

const options = JSON.parse(process.env.BENCH_REPLAY_OPTIONS ?? '{}') as Options;
const recording = await loadRecording();
const server = await startReplayServer({
  frames: framesOf(recording, recording.meta.phases[options.mix]),
  rate: options.rate,
  live: true,
  backlogSeconds: options.backlogSeconds,
});

/** A #commit frame of `liker` creating a like of the subject: the record block in the CAR, as a PDS sends it. */
async function likeFrame(like: Inject): Promise<(seq: number, time: string) => Uint8Array> {
  const record = await block({
    $type: 'app.bsky.feed.like',
    subject: { uri: like.subjectUri, cid: like.subjectCid },
    createdAt: new Date().toISOString(),
  });
  const blocks = toBytes(await car([record]));
  return (seq, time) =>
    frame(
      { op: 1, t: '#commit' },
      {
        seq,
        repo: like.liker,
        rebase: false,
        tooBig: false,
        commit: CID.toCidLink(record.cid),
        rev: '3kbench',
        since: null,
        blocks,
        ops: [{ action: 'create', path: `app.bsky.feed.like/${like.rkey}`, cid: CID.toCidLink(record.cid) }],
        blobs: [],
        time,
      },
    );
}

const accounts = recording.meta.accounts;
const profile = (a: { did: string; handle: string }) => ({
  did: a.did,
  handle: a.handle,
  displayName: a.handle.split('.')[0],
  followersCount: 0,
  createdAt: '2024-01-01T00:00:00.000Z',
});
const find = (actor: string) => accounts.find((a) => a.did === actor || a.handle === actor);
const appview = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://appview');
  const answer = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const notFound = () => answer(400, { error: 'InvalidRequest', message: 'Profile not found' });
  switch (url.pathname) {
    case '/xrpc/app.bsky.actor.getProfile': {
      const account = find(url.searchParams.get('actor') ?? '');
      return account ? answer(200, profile(account)) : notFound();
    }
    case '/xrpc/app.bsky.actor.getProfiles':
      return answer(200, {
        profiles: url.searchParams.getAll('actors').flatMap((actor) => {
          const account = find(actor);
          return account ? [profile(account)] : [];
        }),
      });
    case '/xrpc/com.atproto.identity.resolveHandle': {
      const account = find(url.searchParams.get('handle') ?? '');
      return account ? answer(200, { did: account.did }) : answer(400, { error: 'InvalidRequest' });
    }
    case '/xrpc/app.bsky.feed.getPosts':
      return answer(200, { posts: [] });
    default: {
      // The PLC directory's read: GET /<did>.
      const document = recordedDidDocument(recording.meta, decodeURIComponent(url.pathname.slice(1)));
      return document ? answer(200, document) : answer(404, { message: 'DID not registered' });
    }
  }
});
await new Promise<void>((resolve) => appview.listen(0, '127.0.0.1', resolve));
const appviewUrl = `http://127.0.0.1:${(appview.address() as AddressInfo).port}`;

process.on('message', (message: { inject?: Inject }) => {
  if (!message.inject) return;
  void likeFrame(message.inject).then((make) => {
    const seq = server.inject(make);
    process.send?.({ injected: { seq, producedAt: server.producedAt(seq) } });
  });
});
process.on('disconnect', () => {
  appview.close();
  void server.close().then(() => process.exit(0));
});
process.send?.({ url: server.url, appviewUrl });
