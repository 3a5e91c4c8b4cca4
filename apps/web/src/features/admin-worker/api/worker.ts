import { queryOptions } from '@tanstack/react-query';
import {
  adminRunRequestResponseSchema,
  adminWorkerPausedResponseSchema,
  adminWorkerResponseSchema,
  type WorkerJobName,
} from '@manaboard/contract/admin';
import { adminRequest } from '../../../lib/admin-api';

/** How often the open screen asks again: the worker's state moves by the second while a job runs. */
export const WORKER_REFRESH_MS = 5_000;

export const workerKeys = { status: ['admin', 'worker'] as const };

/** `GET /api/admin/worker`: jobs, network usage, pause state and recent run-now requests; refreshed while open. */
export const workerStatusQueryOptions = () =>
  queryOptions({
    queryKey: workerKeys.status,
    queryFn: ({ signal }) => adminRequest('/api/admin/worker', { schema: adminWorkerResponseSchema, signal }),
    refetchInterval: WORKER_REFRESH_MS,
    staleTime: 0,
  });

/** `POST /api/admin/worker/pause` `{paused}`: pause or resume (audited); the leading worker obeys between runs. */
export const setWorkerPaused = (paused: boolean) =>
  adminRequest('/api/admin/worker/pause', {
    method: 'POST',
    body: { paused },
    schema: adminWorkerPausedResponseSchema,
  });

/** `POST /api/admin/worker/run` `{job}`: a stored request the leading worker picks up within seconds. */
export const runJobNow = (job: WorkerJobName) =>
  adminRequest('/api/admin/worker/run', {
    method: 'POST',
    body: { job },
    schema: adminRunRequestResponseSchema,
  });
