import * as z from 'zod/mini';
import { rewardsExportSchema } from './admin-export';
import { runRequestSchema, workerStatusSchema } from './admin-worker';
import { memberDetailSchema, memberSearchResultSchema, setQualificationResultSchema } from './admin-members';
import { programmeRulesViewSchema } from './admin-rules';

/**
 * The console's answers for the Members section (`/api/admin/members…`): the data shapes of admin-members.ts in
 * the console's `{success, data}` envelope.
 */
export const adminMembersResponseSchema = z.object({
  success: z.literal(true),
  data: memberSearchResultSchema,
});
export const adminMemberResponseSchema = z.object({ success: z.literal(true), data: memberDetailSchema });
export const adminQualificationResponseSchema = z.object({
  success: z.literal(true),
  data: setQualificationResultSchema,
});

/** `GET /api/admin/rules`: the rules in force and their version (the form starts from them). */
export const adminRulesResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ version: z.number(), rules: programmeRulesViewSchema }),
});

/** `GET /api/admin/export?period=2026-W47&format=json`: the export in the console's envelope. */
export const adminRewardsExportResponseSchema = z.object({
  success: z.literal(true),
  data: rewardsExportSchema,
});

/** `GET /api/admin/worker`: jobs, network usage, pause state and recent run-now requests. */
export const adminWorkerResponseSchema = z.object({ success: z.literal(true), data: workerStatusSchema });
/** `POST /api/admin/worker/pause` with `{paused}`: the state now in force. */
export const adminWorkerPausedResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ paused: z.boolean() }),
});
/** `POST /api/admin/worker/run` with `{job}`: the stored request the leading worker picks up. */
export const adminRunRequestResponseSchema = z.object({ success: z.literal(true), data: runRequestSchema });
