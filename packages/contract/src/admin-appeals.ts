import * as z from 'zod/mini';
import { appealListSchema, appealSchema, answerAppealRequestSchema } from './appeals';

/** `GET /api/admin/appeals?status=open|all&limit=&offset=`: the console's appeal list. */
export const adminAppealsResponseSchema = z.object({ success: z.literal(true), data: appealListSchema });
export type AdminAppealsResponse = z.infer<typeof adminAppealsResponseSchema>;

/** `POST /api/admin/appeals/:appealId/answer` with `{answer}`: the operator answers (or changes the answer). */
export const adminAppealParamsSchema = z.pick(answerAppealRequestSchema, { appealId: true });
export const adminAppealAnswerBodySchema = z.pick(answerAppealRequestSchema, { answer: true });
export type AdminAppealAnswerBody = z.infer<typeof adminAppealAnswerBodySchema>;
export const adminAppealResponseSchema = z.object({ success: z.literal(true), data: appealSchema });
