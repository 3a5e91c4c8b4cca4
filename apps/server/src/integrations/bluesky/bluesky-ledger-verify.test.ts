import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerLineSchema, type LedgerLine } from '@manaboard/contract/ledger';
import { renderReport, verifyLedger } from '@manaboard/verifier';
import { Sealed } from '../../config/sealed';
import { Worker } from '../../jobs/worker';
import { closeableAt } from '../../modules/ledger/ledger-close.service';
import { ledgerWeek, weekAt } from '../../modules/ledger/ledger-week';
import { saveCursor } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import { BLUESKY_JOBS } from '../../composition/bluesky-streaming';
import { atprotoNetworkSkipReason } from '../../test/atproto-network';
import { startBlueskyWorld, type BlueskyWorld, type Did } from '../../test/bluesky-world';
import { reservePort } from '../../test/free-port';
import { testDatabaseKinds } from '../../test/test-database';
import { BlueskyLedgerPublisher } from './bluesky-ledger-publisher';

const reason = atprotoNetworkSkipReason();

/**
 * Issue 30 end to end, nothing mocked but the network (a real local one): the server streams members' posts and
 * the likes, reposts and replies to them, the ledger job closes the week once it can no longer move and publishes
 * its hash from the official account, and the verifier, given only the server's origin and the PLC directory,
 * checks the week in full. A like deleted afterwards is "deleted since" on the proof the server kept.
 */
describe.skipIf(reason).each(testDatabaseKinds())(
  'the verifier against the real server on a local AT Protocol network (%s)',
  (kind) => {
    let w: BlueskyWorld;
    let worker: Worker;
    let origin: string;
    let week: string;

    beforeAll(async () => {
      const { port, release } = await reservePort();
      origin = `http://127.0.0.1:${port}`;
      // The app knows where it is served (PUBLIC_ORIGIN): the index's URLs and the published post's link agree.
      w = await startBlueskyWorld(
        ['manahq', 'ann', 'ben', 'fan1', 'fan2', 'fan3'],
        {},
        {
          databaseKind: kind,
          publicOrigin: origin,
          blueskyApp: true,
        },
      );
      await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date(w.clock.now()));
      // Held until now: the world's start makes many connections, each on an ephemeral port.
      await release();
      await w.app.listen({ port, host: '127.0.0.1' });
      // The worker as the Bluesky runtime makes it: the ledger job closes weeks and publishes from the app account.
      worker = new Worker(
        {
          db: w.database.db,
          network: w.reading.network,
          clock: w.clock,
          log: w.log,
          ledger: {
            publicOrigin: origin,
            databaseKind: w.database.kind,
            publisher: new BlueskyLedgerPublisher({
              account: {
                handle: 'manahq.test',
                password: new Sealed('manahq-password'),
                service: w.net.pdsUrl,
              },
              officialHandleDomain: 'test',
            }),
          },
        },
        { databaseKind: w.database.kind, jobs: BLUESKY_JOBS },
      );
      await w.reading.stream.start();
    }, 180_000);

    afterAll(async () => {
      await worker?.stop();
      await w?.close();
    }, 60_000);

    const run = () =>
      verifyLedger({
        origin,
        plcUrl: w.net.plcUrl,
        // The local network's handles (*.test) are in no DNS: its PDS resolves the official one.
        handleResolver: w.net.pdsUrl,
        officialDomain: 'test',
        week,
        progress: null,
        http: { timeoutMs: 10_000, retries: 1 },
      });
    const ledgerLines = async (): Promise<LedgerLine[]> => {
      const response = await fetch(`${origin}/api/ledger/${week}/1`);
      expect(response.status).toBe(200);
      const text = await response.text();
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => ledgerLineSchema.parse(JSON.parse(line)));
    };

    it('streams a week, closes and publishes it, and the verifier checks it in full; a like deleted since is no fault', async () => {
      week = weekAt(new Date(w.clock.now())).week;
      const annPost = await w.post('ann', 'checking the board #ManaBoard');
      const benPost = await w.post('ben', 'my week on the board #ManaBoard');
      const like = await w.like('fan1', annPost);
      await w.like('fan2', annPost);
      await w.like('fan3', benPost);
      await w.repost('fan2', annPost);
      await w.reply('fan3', annPost, 'nice board');
      await w.reading.stream.storedThrough(await w.head());
      await w.net.network.processAll();

      // The open week's lines carry the Mana of the last totals run (the worker runs it seconds after new records).
      await worker.runJob('totals');
      // The open week, as it stands: its records and Mana are checked; it has no hash or publication yet.
      const open = await run();
      const renderedOpen = renderReport(open);
      expect(open.exitCode, renderedOpen).toBe(0);
      expect(open).toMatchObject({ state: 'open', hash: { matches: null }, publication: null });
      expect(renderedOpen).toContain(
        'note         an open week: its hash is only known once it closes, so no hash or publication to compare',
      );
      expect(open.records?.counts).toMatchObject({ missing: 0, changed: 0, unreachable: 0 });
      expect(open.records?.ok).toBe(5);
      expect(open.members).toMatchObject({ total: 2, differing: 0 });

      // Past the week's end, its refresh window and its settle window: nothing in it can move any more.
      const rules = w.rules;
      const due = closeableAt(ledgerWeek(week), rules).getTime();
      w.time.offset = due - Date.now() + 60_000;
      await worker.runJob('refresh');
      await worker.runJob('settle');
      await worker.runJob('totals');
      expect(await worker.runJob('ledger')).toMatchObject({ counts: { closed: 1, published: 1, failed: 0 } });

      const lines = await ledgerLines();
      const end = lines.at(-1) as Extract<LedgerLine, { type: 'end' }>;
      expect(end).toMatchObject({ type: 'end', members: 2, posts: 2 });
      const records = lines.filter((l) => l.type === 'record');
      // 3 likes, a repost and a reply, each with its record.
      expect(records).toHaveLength(5);
      expect(end.records).toBe(5);
      const ledgerLike = records.find((r) => r.type === 'record' && r.uri === like.toString());
      expect(ledgerLike).toBeDefined();

      const report = await run();
      const rendered = renderReport(report);
      expect(report.exitCode, rendered).toBe(0);
      expect(report.result).toBe('consistent');
      expect(report.state).toBe('closed');
      expect(report.hash.matches).toBe(true);
      expect(report.publication).toMatchObject({ status: 'verified', handle: 'manahq.test', warnings: [] });
      expect({ ok: report.records?.ok, ...report.records?.counts }).toEqual({
        ok: 5,
        missing: 0,
        changed: 0,
        'deleted since': 0,
        unreachable: 0,
      });
      expect(report.members).toMatchObject({ total: 2, differing: 0 });
      expect(rendered).toContain('CONSISTENT (exit 0)');
      expect(rendered).toMatch(/^not traceable 0 points counted without a record$/m);

      // The like's author deletes it after the week closed: the closed ledger keeps it, the kept proof explains it.
      const fan1 = w.did.fan1 as Did;
      await w.sc.agent.com.atproto.repo.deleteRecord(
        { repo: fan1, collection: 'app.bsky.feed.like', rkey: like.rkey },
        { headers: w.sc.getHeaders(fan1) },
      );
      await w.reading.stream.storedThrough(await w.head());
      const after = await run();
      const renderedAfter = renderReport(after);
      expect(after.exitCode, renderedAfter).toBe(0);
      expect({ ok: after.records?.ok, ...after.records?.counts }).toEqual({
        ok: 4,
        missing: 0,
        changed: 0,
        'deleted since': 1,
        unreachable: 0,
      });
      expect(after.records?.examples).toEqual([
        expect.objectContaining({ status: 'deleted since', uri: like.toString() }),
      ]);
      expect(after.members).toMatchObject({ total: 2, differing: 0 });
    }, 240_000);
  },
);
