import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsResponseSchema } from '@manaboard/contract';
import { linkMember, startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { markAuthorsDirty } from '../mana/authors.repository';
import { insertInteractions } from '../mana/interactions.repository';
import { insertReferral } from '../referrals/referrals.repository';
import { setDisqualified } from '../mana/disqualification.repository';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-18T12:00:00Z');

/**
 * The records page on X (the simulated X through the real pipeline): X gives counts without records, so a post
 * line's points are all "not traceable"; the interactions and referrals show their own records; bad input is a
 * 400, an unknown author or someone else's post a 404; the answer carries an ETag and Cache-Control.
 */
describe.each(testDatabaseKinds())('the records behind a line, on X (%s)', (kind) => {
  let h: ManaHarness;
  let ann: { id: string; username: string };
  let bob: { id: string; username: string };
  let postId: string;
  let annBrowser: string;
  let bobBrowser: string;
  beforeAll(async () => {
    const world = new World(START);
    ann = world.createUser({ username: 'ann' });
    bob = world.createUser({ username: 'bob' });
    postId = world.createPost(ann.id, 'first #ManaBoard', START - 2 * HOUR).id;
    world.addOrganic(postId, { likes: 10, replies: 2, reposts: 1, quotes: 1 });
    world.createPost(bob.id, 'bob on #ManaBoard', START - 2 * HOUR);
    h = await startManaHarness(kind, world);
    await h.worker.runCycle();
    const annLinked = await linkMember(h, ann, START - HOUR);
    const bobLinked = await linkMember(h, bob, START - HOUR);
    annBrowser = annLinked.browserId;
    bobBrowser = bobLinked.browserId;
    await insertReferral(h.database.db, {
      refereeAccountId: bobLinked.account.id,
      referrerAccountId: annLinked.account.id,
      rewardMana: 50,
      createdAt: new Date(START - HOUR / 2),
    });
    await insertInteractions(h.database.db, [
      {
        memberId: ann.id,
        postId: '900',
        kind: 'repost',
        reward: 2,
        detectedAt: new Date(START - HOUR),
        checkAfter: new Date(START + 23 * HOUR),
        settleBy: new Date(START + 71 * HOUR),
      },
    ]);
    await markAuthorsDirty(h.database.db, [ann.id]);
    await h.worker.runJob('totals');
  });
  afterAll(() => h.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'GET', url, headers });
  const records = async (url: string, headers: Record<string, string> = {}) => {
    const response = await get(url, headers);
    expect(response.statusCode, response.body).toBe(200);
    return recordsResponseSchema.parse(response.json()).data;
  };

  it("gives a post line's counts as not traceable: X names no record behind a count", async () => {
    const data = await records(`/api/mana/${ann.id}/records?post=${postId}`);
    expect(data).toMatchObject({
      line: 'post',
      post: postId,
      page: 1,
      limit: 50,
      hasMore: false,
      counts: { likes: 10, replies: 2, reposts: 1, quotes: 1 },
      notTraceable: { likes: 10, replies: 2, reposts: 1, quotes: 1 },
      records: [],
    });
  });

  it("shows an interaction's line with its due dates, and the member's referrals named only to the member", async () => {
    const interactions = await records(`/api/mana/${ann.id}/records?line=interaction`);
    expect(interactions.records).toEqual([
      expect.objectContaining({
        kind: 'repost',
        uri: null,
        cid: null,
        state: 'pending',
        reason: null,
        checkAfter: new Date(START + 23 * HOUR).toISOString(),
        dueAt: new Date(START + 71 * HOUR).toISOString(),
        author: { id: ann.id, handle: 'ann', url: expect.stringMatching(/\/x-sim\/ann$/) },
        urlIsAuthor: true,
      }),
    ]);
    expect((await records(`/api/mana/${ann.id}/records?line=interaction&post=901`)).records).toEqual([]);

    const own = await get(`/api/mana/${ann.id}/records?line=referral`, { 'x-user-id': annBrowser });
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(recordsResponseSchema.parse(own.json()).data.records).toEqual([
      expect.objectContaining({
        kind: 'referral',
        author: { id: bob.id, handle: 'bob', url: expect.stringMatching(/\/x-sim\/bob$/) },
        at: new Date(START - HOUR / 2).toISOString(),
        state: 'counted',
      }),
    ]);
    const seenByBob = await records(`/api/mana/${ann.id}/records?line=referral`, { 'x-user-id': bobBrowser });
    expect(seenByBob.records).toEqual([
      expect.objectContaining({ kind: 'referral', author: { id: null, handle: null, url: null }, url: null }),
    ]);

    // A disqualified referee's referral counts nothing, and says why.
    await setDisqualified(h.database.db, bob.id, true);
    const after = await records(`/api/mana/${ann.id}/records?line=referral`, { 'x-user-id': annBrowser });
    expect(after.records[0]).toMatchObject({ state: 'void', reason: 'referee-disqualified' });
  });

  it('refuses bad input with a 400 and names the field; an unknown author or a post of someone else is a 404', async () => {
    for (const query of [
      'page=0&post=1',
      'page=abc&post=1',
      'limit=0&post=1',
      'limit=101&post=1',
      'line=post',
      'line=everything&post=1',
      'post=%00',
      `post=${'x'.repeat(513)}`,
    ]) {
      const response = await get(`/api/mana/${ann.id}/records?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toEqual({ success: false, error: expect.any(String) });
    }
    expect((await get(`/api/mana/${ann.id}/records?limit=101&post=1`)).json().error).toMatch(/limit/);
    for (const url of [
      `/api/mana/12345/records?post=${postId}`,
      `/api/mana/${bob.id}/records?post=${postId}`,
      `/api/mana/${ann.id}/records?post=777`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ success: false, error: expect.any(String) });
    }
  });

  it('answers with an ETag and Cache-Control like the other public reads, and 304 when the browser has it', async () => {
    const url = `/api/mana/${ann.id}/records?post=${postId}&page=1&limit=20`;
    const first = await get(url);
    expect(first.headers['cache-control']).toBe('public, max-age=15, stale-while-revalidate=60');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await get(url, { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
  });
});
