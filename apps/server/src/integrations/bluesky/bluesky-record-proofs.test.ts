import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerProofResponseSchema } from '@manaboard/contract/ledger';
import { identityOf, verifyRecordProof } from '@manaboard/verifier';
import { saveCursor } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import { atprotoNetworkSkipReason } from '../../test/atproto-network';
import { startBlueskyWorld, type BlueskyWorld, type Did } from '../../test/bluesky-world';

const reason = atprotoNetworkSkipReason();
const WEEK = '2026-W48';

/**
 * Records deleted since (issue 30, docs/ledger-format.md) on a real local AT Protocol network: a like the stream
 * counts keeps its repository proof, built from its #commit frame; `GET /api/ledger/:week/proof` serves it; the
 * verifier's own check accepts it against the author's DID document, before and after the author deletes the like
 * (when the author's server proves it absent): that is what makes "deleted since" rather than "missing".
 */
describe.skipIf(reason)('kept record proofs on a real local AT Protocol network', () => {
  let w: BlueskyWorld;
  let reading: BlueskyWorld['reading'];

  beforeAll(async () => {
    w = await startBlueskyWorld(['manahq', 'ann', 'fan1', 'fan2']);
    await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date(w.clock.now()));
    reading = w.newReading({ batchSize: 4, flushMs: 100 });
    await reading.stream.start();
  }, 120_000);

  afterAll(async () => {
    await reading?.stream.stop();
    await w?.close();
  }, 60_000);

  const proofOf = (uri: string, week = WEEK) =>
    w.app.inject({ url: `/api/ledger/${week}/proof?uri=${encodeURIComponent(uri)}` });
  /** The #atproto key of the author's DID document, as the verifier reads it (from the PLC directory). */
  const keyOf = async (did: string) => {
    const doc: unknown = await (await fetch(new URL(`/${did}`, w.net.plcUrl))).json();
    return identityOf(did, doc as Parameters<typeof identityOf>[1]).key;
  };
  /** The author's server's own answer, com.atproto.sync.getRecord: its proof of the record, or of its absence. */
  const pdsProof = async (did: string, collection: string, rkey: string) => {
    const url = new URL('/xrpc/com.atproto.sync.getRecord', w.net.network.pds.url);
    url.search = new URLSearchParams({ did, collection, rkey }).toString();
    const response = await fetch(url);
    return { status: response.status, car: new Uint8Array(await response.arrayBuffer()) };
  };

  it('keeps the proof of a counted like, serves it, and it still verifies once the like is deleted', async () => {
    const post = await w.post('ann', 'checking the board #ManaBoard');
    const untracked = await w.post('ann', 'an aside');
    const like = await w.like('fan1', post);
    await w.like('fan2', untracked); // counts nowhere: no proof kept for it
    await reading.stream.storedThrough(await w.head());

    const rows = await w.database.db
      .selectFrom('record_proofs')
      .select(['record_id', 'kind', 'cid', 'car'])
      .execute();
    expect(rows.map((r) => [r.record_id, r.kind])).toEqual([[like.toString(), 'like']]);
    const stored = await w.database.db
      .selectFrom('stream_records')
      .select('cid')
      .where('id', '=', like.toString())
      .executeTakeFirstOrThrow();
    expect(rows[0]?.cid).toBe(stored.cid);

    const response = await proofOf(like.toString());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toMatch(/^public/);
    const served = ledgerProofResponseSchema.parse(response.json()).data;
    expect(served.uri).toBe(like.toString());
    expect(served.cid).toBe(stored.cid);
    const car = Buffer.from(served.car, 'base64');
    expect(car.equals(Buffer.from(rows[0]?.car ?? []))).toBe(true);

    const fan1 = w.did.fan1 as Did;
    const key = await keyOf(fan1);
    const check = () =>
      verifyRecordProof({ car, did: fan1, collection: 'app.bsky.feed.like', rkey: like.rkey, key });
    const kept = await check();
    expect(kept).toMatchObject({ found: true, cid: stored.cid });
    expect(kept.found && (kept.record as { subject?: { uri?: string } }).subject?.uri).toBe(post.uriStr);
    // The author's server agrees while the like exists.
    const live = await pdsProof(fan1, 'app.bsky.feed.like', like.rkey);
    expect(live.status).toBe(200);
    const liveCheck = await verifyRecordProof({
      car: live.car,
      did: fan1,
      collection: 'app.bsky.feed.like',
      rkey: like.rkey,
      key,
    });
    expect(liveCheck).toMatchObject({ found: true, cid: stored.cid });

    await w.sc.agent.com.atproto.repo.deleteRecord(
      { repo: fan1, collection: 'app.bsky.feed.like', rkey: like.rkey },
      { headers: w.sc.getHeaders(fan1) },
    );
    await reading.stream.storedThrough(await w.head());
    const record = await w.database.db
      .selectFrom('stream_records')
      .select(['state', 'void_reason'])
      .where('id', '=', like.toString())
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ state: 'void', void_reason: 'deleted' });

    // The author's server no longer has it (it proves it absent, or refuses the path) …
    const gone = await pdsProof(fan1, 'app.bsky.feed.like', like.rkey);
    if (gone.status === 200) {
      const absent = await verifyRecordProof({
        car: gone.car,
        did: fan1,
        collection: 'app.bsky.feed.like',
        rkey: like.rkey,
        key,
      });
      expect(absent.found).toBe(false);
    } else {
      expect(gone.status).toBeGreaterThanOrEqual(400);
    }
    // … and the kept proof still shows the author signed it: "deleted since", not "missing".
    const again = await proofOf(like.toString(), '2026-W49');
    expect(again.statusCode, again.body).toBe(200);
    const after = Buffer.from(ledgerProofResponseSchema.parse(again.json()).data.car, 'base64');
    expect(
      await verifyRecordProof({
        car: after,
        did: fan1,
        collection: 'app.bsky.feed.like',
        rkey: like.rkey,
        key,
      }),
    ).toMatchObject({ found: true, cid: stored.cid });
    // Another account's key does not hold for it.
    await expect(
      verifyRecordProof({
        car: after,
        did: fan1,
        collection: 'app.bsky.feed.like',
        rkey: like.rkey,
        key: await keyOf(w.did.ann as Did),
      }),
    ).rejects.toThrow(/signature/);
  }, 120_000);

  it('answers 400 for a bad week or uri and 404 for a record whose proof it did not keep', async () => {
    for (const [week, uri] of [
      ['2026-48', 'at://did:plc:abc/app.bsky.feed.like/3k'],
      [WEEK, 'https://bsky.app/profile/x/post/3k'],
      [WEEK, ''],
    ] as const) {
      const response = await proofOf(uri, week);
      expect(response.statusCode, `${week} ${uri}`).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error: expect.any(String) });
    }
    const missing = await w.app.inject({ url: `/api/ledger/${WEEK}/proof` });
    expect(missing.statusCode).toBe(400);
    const unknown = await proofOf(`at://${w.did.fan2}/app.bsky.feed.like/3kzzzzzzzzzzz`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, error: 'No proof kept for this record' });
  });
});
