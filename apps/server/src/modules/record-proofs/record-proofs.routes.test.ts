import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerProofResponseSchema } from '@manaboard/contract/ledger';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { countOnce, keepProofs, pruneVoidRecords, uncount } from '../mana/stream-records.repository';

const LIKE = 'at://did:plc:fan1/app.bsky.feed.like/3kproofkept22';
const CAR = Uint8Array.from([0x0a, 0xa1, 0x65, 0x72, 0x6f, 0x6f, 0x74, 0x73, 0x80, 0xff, 0x00]);
const NOW = new Date('2026-11-25T10:00:00.000Z');

/**
 * `GET /api/ledger/:week/proof` on both databases: a kept proof is served byte for byte with a public Cache-Control
 * and an ETag; a record deleted since keeps its proof, which goes only with its row (pruned void records); bad
 * input is a 400 in the read routes' dialect, a record without a proof a 404. (The proof's content is checked on
 * the local AT Protocol network: integrations/bluesky/bluesky-record-proofs.test.ts.)
 */
describe.each(testDatabaseKinds())('kept record proofs (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
    const edge = {
      id: LIKE,
      kind: 'like' as const,
      authorId: 'did:plc:fan1',
      subject: { id: 'at://did:plc:ann/app.bsky.feed.post/3kpost', authorId: 'did:plc:ann' },
      createdAt: NOW,
      seenAt: NOW.getTime(),
      cid: 'bafyreiproof',
      proof: CAR,
    };
    const counted = await countOnce(t.database.db, [edge], () => null, NOW);
    await keepProofs(t.database.db, counted, NOW);
    // A replay keeps the first proof.
    await keepProofs(t.database.db, [{ ...edge, proof: Uint8Array.of(1) }], new Date());
  });
  afterAll(async () => t?.close());

  const get = (week: string, uri?: string) =>
    t.app.inject({
      url: `/api/ledger/${week}/proof${uri === undefined ? '' : `?uri=${encodeURIComponent(uri)}`}`,
    });

  it('serves a kept proof, still after the record is deleted, and drops it with the record’s row', async () => {
    const response = await get('2026-W48', LIKE);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(response.headers.etag).toBeTruthy();
    const data = ledgerProofResponseSchema.parse(response.json()).data;
    expect(data).toEqual({
      uri: LIKE,
      cid: 'bafyreiproof',
      capturedAt: NOW.toISOString(),
      car: Buffer.from(CAR).toString('base64'),
    });
    const revalidated = await t.app.inject({
      url: `/api/ledger/2026-W48/proof?uri=${encodeURIComponent(LIKE)}`,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);

    await uncount(t.database.db, [LIKE], NOW);
    expect((await get('2026-W49', LIKE)).statusCode).toBe(200);
    await pruneVoidRecords(t.database.db, new Date(NOW.getTime() + 1));
    expect((await get('2026-W48', LIKE)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('record_proofs').select('record_id').execute()).toEqual([]);
  });

  it('answers 400 for a bad week or uri and 404 for a record without a proof', async () => {
    for (const [week, uri] of [
      ['2026-W54', LIKE],
      ['latest', LIKE],
      ['2026-W48', 'https://bsky.app/profile/fan1/post/3k'],
      ['2026-W48', 'at://fan1.test/app.bsky.feed.like/3k'],
      ['2026-W48', ''],
      ['2026-W48', undefined],
    ] as const) {
      const response = await get(week, uri);
      expect(response.statusCode, `${week} ${String(uri)}`).toBe(400);
      const body: unknown = response.json();
      expect(body).toMatchObject({ success: false, error: expect.stringMatching(/^Invalid /) });
    }
    const unknown = await get('2026-W48', 'at://did:plc:nobody/app.bsky.feed.like/3kzz');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, error: 'No proof kept for this record' });
  });
});
