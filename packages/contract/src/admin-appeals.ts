import * as z from 'zod/mini';
import { appealSchema, appealShape } from './appeals';
import { checked } from './checked';

/** Bounds of the operator's answer. */
export const APPEAL_ANSWER_MAX_CHARS = 1000;

/** The operator's answer to an appeal (console: Members → appeals). */
export const answerAppealRequestSchema = z.strictObject({
  appealId: checked(z.string(), z.regex(/^[1-9][0-9]{0,18}$/)),
  answer: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(APPEAL_ANSWER_MAX_CHARS)),
});
export type AnswerAppealRequest = z.infer<typeof answerAppealRequestSchema>;

/**
 * An appeal in the operator's list: whose, about which disqualification, and its answer. Spelled as one object
 * rather than `z.extend`, whose code would otherwise join the main page's first load (issue 13).
 */
export const operatorAppealSchema = z.object({
  ...appealShape,
  authorId: z.string(),
  handle: z.string(),
  disqualifiedAt: z.string(),
  reason: z.nullable(z.string()),
  answeredBy: z.nullable(z.string()),
});
export type OperatorAppeal = z.infer<typeof operatorAppealSchema>;

export const appealListSchema = z.object({
  appeals: z.array(operatorAppealSchema),
  total: z.number(),
});
export type AppealList = z.infer<typeof appealListSchema>;

/** `GET /api/admin/appeals?status=open|all&limit=&offset=`: the console's appeal list. */
export const adminAppealsResponseSchema = z.object({ success: z.literal(true), data: appealListSchema });
export type AdminAppealsResponse = z.infer<typeof adminAppealsResponseSchema>;

export const adminAppealResponseSchema = z.object({ success: z.literal(true), data: appealSchema });
