import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AtpAgent } from '@atproto/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programmeRulesSchema } from '@manaboard/contract';
import { Sealed } from '../../config/sealed';
import type { DatabaseHandle } from '../../db/database';
import { closeWeeks } from '../../modules/ledger/ledger-close.service';
import { publicationOf, publishDue } from '../../modules/ledger/ledger-publish.service';
import { ledgerIndex } from '../../modules/ledger/ledger.service';
import { insertRulesVersion } from '../../modules/programme/programme.repository';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../../test/atproto-network';
import { insertLedgerWorld, type LedgerWorld } from '../../test/ledger-world';
import { openTestDatabase } from '../../test/test-database';
import { BlueskyLedgerPublisher } from './bluesky-ledger-publisher';
import { POST_COLLECTION } from './bluesky-ids';

const skip = atprotoNetworkSkipReason();

/** A PDS that accepts connections and never answers. */
async function startSilentPds() {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => undefined);
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
const ORIGIN = 'https://board.example.org';
const log = pino({ level: 'silent' });

const world: LedgerWorld = {
  members: [
    {
      linked: true,
      linkedAtHour: 0,
      disqualified: false,
      posts: [
        {
          hour: 4,
          minute: 0,
          metrics: { like: 3, quote: 0, reply: 1, repost: 1 },
          traced: 1,
          status: 'live',
          finalEarly: true,
          voidRecords: 0,
        },
      ],
      referrals: [],
      interactions: [],
    },
  ],
  rulesV2Hour: 100,
  weightsV2: { like: 1, reply: 2, repost: 2, quote: 3 },
  referralRewardV2: 50,
  seed: 3,
};

describe.skipIf(skip !== null)(
  `a closed week's hash, published on the local AT Protocol network${skip ? ` (${skip})` : ''}`,
  () => {
    let net: LocalAtprotoNetwork;
    let database: DatabaseHandle;
    let official: { did: string; handle: string };
    const publisher = (handle: string, password: string) =>
      new BlueskyLedgerPublisher({
        account: { handle, password: new Sealed(password), service: net.pdsUrl },
        officialHandleDomain: 'test',
      });
    const postsOf = async (did: string) => {
      const agent = new AtpAgent({ service: net.pdsUrl });
      const { data } = await agent.com.atproto.repo.listRecords({
        repo: did,
        collection: POST_COLLECTION,
        limit: 100,
      });
      return data.records;
    };

    beforeAll(async () => {
      net = await startAtprotoNetwork();
      const sc = net.network.getSeedClient();
      const hq = await sc.createAccount('manahq', {
        handle: 'manahq.test',
        email: 'manahq@example.test',
        password: 'manahq-password',
      });
      await sc.createAccount('alice', {
        handle: 'alice.test',
        email: 'alice@example.test',
        password: 'alice-password',
      });
      official = { did: hq.did, handle: 'manahq.test' };
      database = await openTestDatabase('pglite');
      const db = database.db;
      const { v2 } = await insertLedgerWorld(db, world);
      // The rules in force name the local network's account as the first official one.
      await insertRulesVersion(
        db,
        programmeRulesSchema.parse({ ...v2, officialHandles: ['manahq'] }),
        'test',
      );
      await db.updateTable('posts').set({ final: true }).execute();
      await closeWeeks({ db, kind: 'pglite', network: 'bluesky' }, new Date());
    }, 120_000);
    afterAll(async () => {
      await database?.close();
      await net?.close();
    });

    it('posts each edition once from the official account, with the text and a link, and after a lost answer finds its post instead of posting again', async () => {
      const db = database.db;
      const editions = await db.selectFrom('ledgers').selectAll().where('state', '=', 'stored').execute();
      expect(editions.length).toBeGreaterThan(1);
      const outcome = await publishDue(db, {
        publisher: publisher('manahq.test', 'manahq-password'),
        publicOrigin: ORIGIN,
        now: new Date(),
        log,
      });
      expect(outcome).toEqual({ published: editions.length, failed: 0 });

      const w40 = await db
        .selectFrom('ledgers')
        .selectAll()
        .where('week', '=', '2026-W40')
        .executeTakeFirstOrThrow();
      const { text, link } = publicationOf(w40, ORIGIN);
      expect(text).toBe(
        `Week 40 of 2026: 1 member earned ${w40.mana} Mana. Ledger: ${ORIGIN}/api/ledger/2026-W40/1 ${w40.sha256}`,
      );
      expect(w40.published_uri).toMatch(new RegExp(`^at://${official.did}/app.bsky.feed.post/`));
      let records = await postsOf(official.did);
      expect(records).toHaveLength(editions.length);
      const post = records.find((r) => r.uri === w40.published_uri);
      expect(post?.cid).toBe(w40.published_cid);
      const value = post?.value as {
        text: string;
        facets: Array<{ index: { byteStart: number; byteEnd: number }; features: unknown[] }>;
      };
      expect(value.text).toBe(text);
      const bytes = Buffer.from(value.text);
      const facet = value.facets[0];
      expect(bytes.subarray(facet?.index.byteStart, facet?.index.byteEnd).toString()).toBe(link);
      expect(facet?.features).toEqual([{ $type: 'app.bsky.richtext.facet#link', uri: link }]);

      // The index names the post, so a verifier fetches exactly that record with its proof.
      const index = await ledgerIndex({
        db,
        kind: 'pglite',
        network: 'bluesky',
        now: Date.now,
        publicOrigin: ORIGIN,
      });
      expect(index.data.weeks.find((w) => w.week === '2026-W40')?.editions[0]?.published).toEqual({
        uri: w40.published_uri,
        cid: w40.published_cid,
        at: w40.published_at?.toISOString(),
      });

      // The post was made but its answer lost (a crash before it was stored): the retry finds it and posts nothing.
      await db
        .updateTable('ledgers')
        .set({ published_uri: null, published_cid: null, published_at: null })
        .where('week', '=', '2026-W40')
        .execute();
      const retry = await publishDue(db, {
        publisher: publisher('manahq.test', 'manahq-password'),
        publicOrigin: ORIGIN,
        now: new Date(),
        log,
      });
      expect(retry).toEqual({ published: 1, failed: 0 });
      const again = await db
        .selectFrom('ledgers')
        .selectAll()
        .where('week', '=', '2026-W40')
        .executeTakeFirstOrThrow();
      expect([again.published_uri, again.published_cid]).toEqual([w40.published_uri, w40.published_cid]);
      records = await postsOf(official.did);
      expect(records).toHaveLength(editions.length);
    }, 120_000);

    it('refuses to post from an account that is not the first official one, records why, and retries later', async () => {
      const db = database.db;
      await db
        .updateTable('ledgers')
        .set({ published_uri: null, published_cid: null, published_at: null })
        .where('week', '=', '2026-W40')
        .execute();
      const now = new Date();
      const outcome = await publishDue(db, {
        publisher: publisher('alice.test', 'alice-password'),
        publicOrigin: ORIGIN,
        now,
        log,
      });
      expect(outcome).toEqual({ published: 0, failed: 1 });
      const row = await db
        .selectFrom('ledgers')
        .selectAll()
        .where('week', '=', '2026-W40')
        .executeTakeFirstOrThrow();
      expect(row.publish_error).toBe(
        "the app account is @alice.test, not the programme's first official account @manahq.test",
      );
      expect(row.publish_next_at?.getTime()).toBe(now.getTime() + 60_000);
      expect(row.publish_error).not.toContain('alice-password');
      const alice = await net.network.pds.ctx.accountManager.getAccount('alice.test');
      expect(await postsOf(alice?.did ?? '')).toEqual([]);
      // Not due yet: nothing is tried before the wait is over.
      expect(
        await publishDue(db, {
          publisher: publisher('alice.test', 'alice-password'),
          publicOrigin: ORIGIN,
          now,
          log,
        }),
      ).toEqual({
        published: 0,
        failed: 0,
      });
      const wrongPassword = await publishDue(db, {
        publisher: publisher('manahq.test', 'not-the-password'),
        publicOrigin: ORIGIN,
        now: new Date(now.getTime() + 61_000),
        log,
      });
      expect(wrongPassword).toEqual({ published: 0, failed: 1 });
      const after = await db
        .selectFrom('ledgers')
        .selectAll()
        .where('week', '=', '2026-W40')
        .executeTakeFirstOrThrow();
      expect(after.publish_attempts).toBe(2);
      expect(after.publish_error).toMatch(/could not sign in/);
      expect(after.publish_error).not.toContain('not-the-password');
    }, 120_000);

    it('gives up on a PDS that never answers after its time-out, and records which call did not answer', async () => {
      const db = database.db;
      await db
        .updateTable('ledgers')
        .set({ published_uri: null, published_cid: null, published_at: null, publish_next_at: null })
        .where('week', '=', '2026-W40')
        .execute();
      const silent = await startSilentPds();
      try {
        const started = Date.now();
        const outcome = await publishDue(db, {
          publisher: new BlueskyLedgerPublisher({
            account: { handle: 'manahq.test', password: new Sealed('manahq-password'), service: silent.url },
            officialHandleDomain: 'test',
            timeoutMs: 500,
          }),
          publicOrigin: ORIGIN,
          now: new Date(),
          log,
        });
        // One attempt per due edition, each cut off at its first call.
        expect(outcome.published).toBe(0);
        expect(outcome.failed).toBeGreaterThanOrEqual(1);
        expect(Date.now() - started).toBeLessThan(500 * outcome.failed + 5_000);
        const row = await db
          .selectFrom('ledgers')
          .selectAll()
          .where('week', '=', '2026-W40')
          .executeTakeFirstOrThrow();
        expect(row.publish_error).toBe(
          `the PDS ${silent.url} did not answer com.atproto.server.createSession within 0.5 s`,
        );
        expect(row.publish_next_at).not.toBeNull();
      } finally {
        await silent.close();
      }
    }, 60_000);
  },
);
