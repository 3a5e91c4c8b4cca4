import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminRunRequestResponseSchema,
  adminWorkerPausedResponseSchema,
  adminWorkerResponseSchema,
  runJobNowRequestSchema,
  setWorkerPausedRequestSchema,
} from '@manaboard/contract/admin';
import { requestJobRun, setWorkerPaused, workerStatus } from '../../worker-control/worker-control.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * Section 4, worker and network: every job of the network's schedule with its last and next run, duration, last error and items; the network's
 * usage (X: calls per endpoint against the cap and their cost; Bluesky: stream lag and reconnects); run a job now;
 * pause and resume. Requests are stored, so the leading worker obeys them in whichever process it runs.
 */
export const adminWorkerRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, options) => {
  const { db, now, schedule, usage } = options;

  app.get('/worker', { schema: { response: { 200: adminWorkerResponseSchema } } }, async () => ({
    success: true as const,
    data: await workerStatus({ db, now, usage, schedule }),
  }));

  app.post(
    '/worker/pause',
    { schema: { body: setWorkerPausedRequestSchema, response: { 200: adminWorkerPausedResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await setWorkerPaused(db, {
        paused: request.body.paused,
        actor: adminOf(request).actor,
        now: new Date(now()),
      }),
    }),
  );

  app.post(
    '/worker/run',
    { schema: { body: runJobNowRequestSchema, response: { 200: adminRunRequestResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await requestJobRun(db, {
        job: request.body.job,
        actor: adminOf(request).actor,
        now: new Date(now()),
      }),
    }),
  );
};
