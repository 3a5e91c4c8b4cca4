import { randomUUID } from 'node:crypto';
import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  memberStandingResponseSchema,
  referralFailureSchema,
  submitAppealResponseSchema,
} from '@manaboard/contract';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { trackedMember, writeHeaders } from '../../test/members-world';
import { setAuthorDisqualified } from '../mana/disqualification.service';
import { answerAppeal, listAppeals } from './appeals.service';

const NOW = new Date('2026-11-20T12:00:00Z');
const TEXT = 'I am a real person, these are my own posts.';

describe.each(testDatabaseKinds())('appeals on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind, {}, { world: new World(NOW.getTime()) });
  });
  afterAll(async () => {
    await t.close();
  });

  const standing = async (browserId: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/me/standing',
      headers: { 'x-user-id': browserId },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return memberStandingResponseSchema.parse(response.json()).data;
  };
  const appeal = async (browserId: string, body: unknown, csrf = true) =>
    t.app.inject({
      method: 'POST',
      url: '/me/appeal',
      headers: csrf ? await writeHeaders(t.app, browserId) : { 'x-user-id': browserId },
      payload: body as object,
    });
  const failure = (response: { statusCode: number; json: () => unknown }, status: number, code: string) => {
    expect(response.statusCode).toBe(status);
    expect(referralFailureSchema.parse(response.json()).error.code).toBe(code);
  };
  const disqualify = (handle: string, disqualified: boolean, reason: string, now = NOW) =>
    setAuthorDisqualified(t.database.db, { handle, disqualified, reason, actor: 'op:ann', now });

  it('tells a browser that is not linked so, and refuses its appeal', async () => {
    const browser = randomUUID();
    expect(await standing(browser)).toEqual({
      linked: false,
      disqualified: false,
      reason: null,
      disqualifiedAt: null,
      canAppeal: false,
      appeal: null,
    });
    failure(await appeal(browser, { text: TEXT }), 401, 'UNAUTHORIZED');
    const noId = await t.app.inject({ method: 'GET', url: '/me/standing' });
    expect(noId.statusCode).toBe(401);
  });

  it('lets a member in good standing see so, and gives them nothing to appeal', async () => {
    const { browserId } = await trackedMember(t.database.db, { id: '101', handle: 'good_gal' }, NOW);
    expect(await standing(browserId)).toMatchObject({ linked: true, disqualified: false, canAppeal: false });
    failure(await appeal(browserId, { text: TEXT }), 409, 'CONFLICT');
  });

  it('shows the reason, takes one appeal (CSRF, validated), and shows the operator’s answer', async () => {
    const { browserId } = await trackedMember(t.database.db, { id: '102', handle: 'farmer' }, NOW);
    await disqualify('farmer', true, 'Circular farming with three accounts');
    expect(await standing(browserId)).toEqual({
      linked: true,
      disqualified: true,
      reason: 'Circular farming with three accounts',
      disqualifiedAt: NOW.toISOString(),
      canAppeal: true,
      appeal: null,
    });

    failure(await appeal(browserId, { text: TEXT }, false), 403, 'CSRF_TOKEN_REQUIRED');
    failure(await appeal(browserId, { text: '   too short   ' }), 400, 'BAD_REQUEST');
    failure(await appeal(browserId, { text: 'x'.repeat(501) }), 400, 'BAD_REQUEST');
    failure(await appeal(browserId, { text: TEXT, extra: 1 }), 400, 'BAD_REQUEST');
    failure(await appeal(browserId, {}), 400, 'BAD_REQUEST');

    const sent = await appeal(browserId, { text: `  ${TEXT}  ` });
    expect(sent.statusCode).toBe(200);
    const stored = submitAppealResponseSchema.parse(sent.json()).data;
    expect(stored).toMatchObject({ text: TEXT, answer: null, answeredAt: null });
    failure(await appeal(browserId, { text: 'A second appeal is not allowed.' }), 409, 'CONFLICT');
    expect(await standing(browserId)).toMatchObject({
      canAppeal: false,
      appeal: { id: stored.id, text: TEXT },
    });

    const open = await listAppeals(t.database.db, { status: 'open', limit: 50, offset: 0 });
    expect(open.appeals.map((a) => [a.handle, a.text, a.reason])).toEqual([
      ['farmer', TEXT, 'Circular farming with three accounts'],
    ]);

    const answeredAt = new Date(NOW.getTime() + 3_600_000);
    await answerAppeal(t.database.db, {
      appealId: stored.id,
      answer: 'We checked again: the disqualification stands.',
      actor: 'op:ann',
      now: answeredAt,
    });
    expect((await standing(browserId)).appeal).toEqual({
      ...stored,
      answer: 'We checked again: the disqualification stands.',
      answeredAt: answeredAt.toISOString(),
    });
    expect((await listAppeals(t.database.db, { status: 'open', limit: 50, offset: 0 })).total).toBe(0);
    expect((await listAppeals(t.database.db, { status: 'all', limit: 50, offset: 0 })).total).toBe(1);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject', 'details'])
      .where('action', 'like', 'appeal.%')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, a.subject])).toEqual([
      ['appeal.submit', '102'],
      ['appeal.answer', '102'],
    ]);
    expect(audit[1]?.actor).toBe('op:ann');
    expect(audit[1]?.details).toMatchObject({
      before: { answer: null },
      after: { answer: 'We checked again: the disqualification stands.', answeredBy: 'op:ann' },
    });
  });

  it('answers 404 for an unknown appeal and lets a member appeal a new disqualification again', async () => {
    await expect(
      answerAppeal(t.database.db, { appealId: '999999', answer: 'x', actor: 'op', now: NOW }),
    ).rejects.toMatchObject({ status: 404 });
    const { browserId } = await trackedMember(t.database.db, { id: '103', handle: 'twice' }, NOW);
    await disqualify('twice', true, 'Bot-like bursts');
    expect((await appeal(browserId, { text: TEXT })).statusCode).toBe(200);
    await disqualify('twice', false, 'Appeal accepted');
    expect(await standing(browserId)).toMatchObject({ disqualified: false, reason: null, canAppeal: false });
    await disqualify('twice', true, 'Paid raiders', new Date(NOW.getTime() + 86_400_000));
    expect(await standing(browserId)).toMatchObject({ reason: 'Paid raiders', canAppeal: true });
    expect((await appeal(browserId, { text: 'The raiders were not mine.' })).statusCode).toBe(200);
  });
});
