import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuditResponseSchema,
  adminRunRequestResponseSchema,
  adminWorkerPausedResponseSchema,
  adminWorkerResponseSchema,
} from '@manaboard/contract/admin';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../../test/admin-flow';
import { startLinkingTest, type LinkingTest } from '../../../test/linking-flow';
import { testDatabaseKinds } from '../../../test/test-database';

describe.each(testDatabaseKinds())('console worker section on %s', (kind) => {
  let t: LinkingTest;
  let admin: AdminBrowser;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    admin = await signedInAdmin(t, 'news_desk');
  });
  afterAll(async () => {
    await t.close();
  });

  const status = async () => {
    const response = await adminRequest(t, admin, 'GET', '/api/admin/worker');
    expect(response.statusCode, response.body).toBe(200);
    return adminWorkerResponseSchema.parse(response.json()).data;
  };

  it('shows the network usage, pauses and resumes (audited), and stores a run-now request', async () => {
    const before = await status();
    expect(before.paused).toBe(false);
    expect(before.usage.kind).toBe('calls');

    const paused = await adminRequest(t, admin, 'POST', '/api/admin/worker/pause', { paused: true });
    expect(adminWorkerPausedResponseSchema.parse(paused.json()).data.paused).toBe(true);
    expect(await status()).toMatchObject({ paused: true, pausedBy: expect.stringMatching(/news_desk/) });
    await adminRequest(t, admin, 'POST', '/api/admin/worker/pause', { paused: false });
    expect((await status()).paused).toBe(false);

    const bad = await adminRequest(t, admin, 'POST', '/api/admin/worker/run', { job: 'format-disk' });
    expect(bad.statusCode).toBe(400);
    const run = await adminRequest(t, admin, 'POST', '/api/admin/worker/run', { job: 'totals' });
    expect(run.statusCode, run.body).toBe(200);
    const request = adminRunRequestResponseSchema.parse(run.json()).data;
    expect(request).toMatchObject({
      job: 'totals',
      startedAt: null,
      requestedBy: expect.stringMatching(/news_desk/),
    });
    expect((await status()).runRequests.map((r) => r.id)).toContain(request.id);

    const audit = await adminRequest(t, admin, 'GET', '/api/admin/audit?actor=news_desk');
    const actions = adminAuditResponseSchema
      .parse(audit.json())
      .entries.map((e) => e.action)
      .filter((a) => a.startsWith('worker.'));
    expect(actions).toEqual(['worker.run-now', 'worker.resume', 'worker.pause']);
  });
});
