import * as z from 'zod/mini';

/**
 * The console's Ledger section (issue 30, ADR 014): every week of the programme, open or closed; each closed
 * week's editions with their hash, the official account's post of it (or why it is not posted yet, and the exact
 * text to post by hand), and for a closed week a check against the data now and the correction it may need.
 * Service: modules/ledger.
 */

const publication = z.object({
  uri: z.string(),
  cid: z.string(),
  at: z.string(),
  /** Where a person sees the post (null when the network gave none). */
  url: z.nullable(z.string()),
});

export const adminLedgerEditionSchema = z.object({
  edition: z.number(),
  createdAt: z.string(),
  /** `worker`, or the operator who issued the correction. */
  createdBy: z.string(),
  reason: z.nullable(z.string()),
  sha256: z.string(),
  byteLength: z.number(),
  members: z.number(),
  mana: z.number(),
  url: z.string(),
  /** The post that publishes the hash: what the worker posts, or what to post by hand. */
  text: z.string(),
  published: z.nullable(publication),
  publishing: z.object({
    attempts: z.number(),
    error: z.nullable(z.string()),
    nextAt: z.nullable(z.string()),
  }),
});
export type AdminLedgerEdition = z.infer<typeof adminLedgerEditionSchema>;

export const adminLedgerWeekSchema = z.object({
  week: z.string(),
  state: z.enum(['open', 'closed']),
  /** An open week: the earliest it closes (its end plus the refresh and settle windows of the rules in force). */
  closesAt: z.nullable(z.string()),
  editions: z.array(adminLedgerEditionSchema),
});
export type AdminLedgerWeek = z.infer<typeof adminLedgerWeekSchema>;

export const adminLedgerResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    /** Whether the worker posts each hash from the official account (else: by hand). */
    automatic: z.boolean(),
    /** The account the hash is posted from, as the rules name it. */
    officialAccount: z.string(),
    weeks: z.array(adminLedgerWeekSchema),
  }),
});
export type AdminLedgerResponse = z.infer<typeof adminLedgerResponseSchema>;

/** `POST /api/admin/ledger/check` and `/correct`: the week (an ISO week, checked by the server). */
export const adminLedgerCheckRequestSchema = z.strictObject({ week: z.string() });
export const adminLedgerCorrectionRequestSchema = z.strictObject({ week: z.string(), reason: z.string() });
export type AdminLedgerCorrectionRequest = z.infer<typeof adminLedgerCorrectionRequestSchema>;

const standing = z.nullable(z.object({ mana: z.number(), rank: z.number() }));

export const adminLedgerCheckSchema = z.object({
  week: z.string(),
  edition: z.number(),
  stored: z.string(),
  current: z.string(),
  identical: z.boolean(),
  figuresChanged: z.boolean(),
  membersChanged: z.number(),
  members: z.array(z.object({ author: z.string(), handle: z.string(), before: standing, after: standing })),
});
export type AdminLedgerCheck = z.infer<typeof adminLedgerCheckSchema>;

export const adminLedgerCheckResponseSchema = z.object({
  success: z.literal(true),
  data: adminLedgerCheckSchema,
});

export const adminLedgerCorrectionResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ edition: z.number(), sha256: z.string(), membersChanged: z.number() }),
});
