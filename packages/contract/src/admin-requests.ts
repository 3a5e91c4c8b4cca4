import * as z from 'zod/mini';
import { checked } from './checked';
import { adminAnnouncementActionSchema } from './admin-announcements';
import { answerAppealRequestSchema } from './admin-appeals';
import { ISO_WEEK_PATTERN } from './admin-export';
import { fairnessFlagKindSchema } from './admin-fairness';
import { accountNameSchema } from './referrals';

/**
 * What the server parses from the console's requests that the console never builds with a schema: query strings,
 * path parameters, the console sign-in's body and the appeal answer's body. A module of their own, so that the web build, which uses none of
 * them, leaves the module out whole (`sideEffects: false`) and with it the zod kinds only they use (coerced
 * numbers, unions, pipes, UUIDs): those would otherwise join the main page's first load (issue 13).
 */

/**
 * `POST /auth/admin/start`: begins a console sign-in through the programme's network. `handle` is required on
 * networks where the account is named first (Bluesky) and ignored elsewhere.
 */
export const adminSignInStartRequestSchema = z.strictObject({
  handle: z.optional(accountNameSchema),
});
export type AdminSignInStartRequest = z.input<typeof adminSignInStartRequestSchema>;

export const adminAnnouncementParamsSchema = z.strictObject({ id: z.uuid({ error: 'id must be a UUID' }) });

export const adminAnnouncementActionParamsSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a UUID' }),
  action: adminAnnouncementActionSchema,
});

/** `POST /api/admin/appeals/:appealId/answer` with `{answer}`: the operator answers (or changes the answer). */
export const adminAppealParamsSchema = z.pick(answerAppealRequestSchema, { appealId: true });

export const adminAppealAnswerBodySchema = z.pick(answerAppealRequestSchema, { answer: true });
export type AdminAppealAnswerBody = z.infer<typeof adminAppealAnswerBodySchema>;

/* @__NO_SIDE_EFFECTS__ */
const filterText = (name: string) =>
  z.optional(
    checked(
      z.string(),
      z.trim(),
      z.minLength(1, `${name} must not be empty`),
      z.maxLength(200, `${name} is too long`),
    ),
  );

/**
 * Filters of `GET /api/admin/audit` and `GET /api/admin/audit.csv`: `actor` matches part of who (handle or id,
 * any case), `action` an action or its family (`announcement` matches `announcement.publish`), `subject` exactly,
 * `from`/`to` an instant range (inclusive, ISO 8601). `cursor` continues a page (from `nextCursor`).
 */
export const adminAuditQuerySchema = z.strictObject({
  actor: filterText('actor'),
  action: filterText('action'),
  subject: filterText('subject'),
  from: z.optional(z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 date-time' })),
  to: z.optional(z.iso.datetime({ offset: true, error: 'to must be an ISO 8601 date-time' })),
  cursor: z.optional(checked(z.string(), z.regex(/^\d{1,19}$/, 'cursor is not one this server gave'))),
  limit: z._default(
    checked(
      z.coerce.number({ error: 'limit must be a whole number' }),
      z.int({ error: 'limit must be a whole number' }),
      z.gte(1, { error: 'limit must be at least 1' }),
      z.lte(200, { error: 'limit must be at most 200' }),
    ),
    50,
  ),
});
export type AdminAuditQuery = z.infer<typeof adminAuditQuerySchema>;
export type AdminAuditFilters = Omit<AdminAuditQuery, 'cursor' | 'limit'>;

/** `GET /api/admin/rules/versions/:version/diff`: which version. */
export const adminRulesVersionParamsSchema = z.object({
  version: checked(z.coerce.number(), z.int(), z.gte(1), z.lte(1_000_000)),
});

/** Query of the export: `period` is `all` or an ISO week; `format` json (default) or csv. */
export const rewardsExportQuerySchema = z.object({
  period: z._default(z.union([z.literal('all'), checked(z.string(), z.regex(ISO_WEEK_PATTERN))]), 'all'),
  format: z._default(z.enum(['json', 'csv']), 'json'),
});
export type RewardsExportQuery = z.infer<typeof rewardsExportQuerySchema>;

/** `GET /api/admin/fairness/flags?kind=&limit=&offset=` query. */
export const fairnessFlagsQuerySchema = z.object({
  kind: z.optional(fairnessFlagKindSchema),
  limit: z._default(checked(z.coerce.number(), z.int(), z.gte(1), z.lte(200)), 50),
  offset: z._default(checked(z.coerce.number(), z.int(), z.gte(0)), 0),
});
export type FairnessFlagsQuery = z.infer<typeof fairnessFlagsQuerySchema>;

const page = {
  limit: z._default(checked(z.coerce.number(), z.int(), z.gte(1), z.lte(100)), 20),
  offset: z._default(checked(z.coerce.number(), z.int(), z.gte(0), z.lte(100_000)), 0),
};

/** Query of the member search: a handle or name fragment (a leading @ dropped), paginated. */
export const memberSearchQuerySchema = z.object({
  q: z.pipe(
    checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
    z.transform((q: string) => q.replace(/^@/, '').toLowerCase()),
  ),
  ...page,
});
export type MemberSearchQuery = z.infer<typeof memberSearchQuerySchema>;

/** Path of a member's page: their network user id. */
export const memberParamsSchema = z.object({
  memberId: checked(z.string(), z.minLength(1), z.maxLength(2048)),
});

/** `GET /api/admin/rules/versions?limit=&offset=` query. */
export const rulesVersionsQuerySchema = z.object({
  limit: z._default(checked(z.coerce.number(), z.int(), z.gte(1), z.lte(100)), 20),
  offset: z._default(checked(z.coerce.number(), z.int(), z.gte(0)), 0),
});
export type RulesVersionsQuery = z.infer<typeof rulesVersionsQuerySchema>;

/** Query of the operator's appeal list: open ones (unanswered) or all, newest first. */
export const appealListQuerySchema = z.object({
  status: z._default(z.enum(['open', 'all']), 'open'),
  limit: z._default(checked(z.coerce.number(), z.int(), z.gte(1), z.lte(100)), 50),
  offset: z._default(checked(z.coerce.number(), z.int(), z.gte(0)), 0),
});
export type AppealListQuery = z.infer<typeof appealListQuerySchema>;

const ledgerWeek = checked(
  z.string({ error: 'week must be an ISO week such as 2026-W48' }),
  z.regex(ISO_WEEK_PATTERN, { error: 'week must be an ISO week such as 2026-W48' }),
);

/** Body of `POST /api/admin/ledger/check`: a closed week. */
export const adminLedgerWeekBodySchema = z.strictObject({ week: ledgerWeek });

/** Body of `POST /api/admin/ledger/correct`: the week and why (the audit keeps it). */
export const adminLedgerCorrectBodySchema = z.strictObject({
  week: ledgerWeek,
  reason: checked(
    z.string({ error: 'a correction needs a reason' }),
    z.trim(),
    z.minLength(1, 'a correction needs a reason'),
    z.maxLength(500, 'the reason is at most 500 characters'),
  ),
});
