import * as z from 'zod/mini';
import { checked } from './checked';
import { socialNetworkSchema } from './networks';

/**
 * The weekly ledger, format `manaboard-ledger/1` (docs/ledger-format.md): canonical JSON lines that the server
 * writes and the verifier reads. Pure: no hashing here (the server and the verifier each use their platform's
 * SHA-256), so the web may import it too.
 */
export const LEDGER_FORMAT = 'manaboard-ledger/1';

/** An ISO week as the ledger's routes name it: `2026-W48`. */
export const isoWeekSchema = checked(
  z.string({ error: 'week must be an ISO week such as 2026-W48' }),
  z.regex(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/, { error: 'week must be an ISO week such as 2026-W48' }),
);

/** Path of `GET /api/ledger/:week`. */
export const ledgerWeekParamsSchema = z.object({ week: isoWeekSchema });

/** Path of `GET /api/ledger/:week/:edition`. */
export const ledgerEditionParamsSchema = z.object({
  week: isoWeekSchema,
  edition: checked(
    z.coerce.number({ error: 'edition must be a whole number' }),
    z.int({ error: 'edition must be a whole number' }),
    z.gte(1, { error: 'edition must be at least 1' }),
    z.lte(10_000, { error: 'edition must be at most 10000' }),
  ),
});

const int = checked(z.number(), z.int(), z.gte(0));
const sha256 = checked(z.string(), z.regex(/^sha256:[0-9a-f]{64}$/));
const time = checked(z.string(), z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/));
const id = checked(z.string(), z.minLength(1), z.maxLength(2048));
const counts = z.strictObject({ likes: int, quotes: int, replies: int, reposts: int });

/** The scoring rules a line was computed with (the fields members may know; the anti-bot gate stays private). */
export const ledgerRulesSchema = z.strictObject({
  dailyLimit: int,
  hashtags: z.array(z.string()),
  interactionRewards: z.strictObject({ like: int, reply: int, repost: int }),
  keywords: z.array(z.string()),
  linkedMultiplier: int,
  officialHandles: z.array(z.string()),
  referralReward: int,
  refreshWindowDays: int,
  settleAfterHours: int,
  settleByHours: int,
  weights: z.strictObject({ like: int, quote: int, reply: int, repost: int }),
});
export type LedgerRules = z.infer<typeof ledgerRulesSchema>;

export const ledgerHeaderSchema = z.strictObject({
  closedAt: z.nullable(time),
  edition: checked(z.number(), z.int(), z.gte(1)),
  format: z.literal(LEDGER_FORMAT),
  from: time,
  network: socialNetworkSchema,
  rules: z.array(
    z.strictObject({
      hash: sha256,
      rules: ledgerRulesSchema,
      version: checked(z.number(), z.int(), z.gte(1)),
    }),
  ),
  state: z.enum(['open', 'closed']),
  to: time,
  type: z.literal('header'),
  week: isoWeekSchema,
});

export const ledgerMemberSchema = z.strictObject({
  author: id,
  firstTrackedAt: time,
  handle: z.string(),
  mana: int,
  rank: checked(z.number(), z.int(), z.gte(1)),
  type: z.literal('member'),
});

export const ledgerPostSchema = z.strictObject({
  author: id,
  counts,
  createdAt: time,
  mana: int,
  multiplier: checked(z.number(), z.int(), z.gte(1)),
  notTraceable: counts,
  overDailyLimit: z.boolean(),
  post: id,
  rulesVersion: checked(z.number(), z.int(), z.gte(1)),
  status: z.enum(['live', 'deleted', 'protected']),
  type: z.literal('post'),
});

export const ledgerRecordKinds = ['like', 'quote', 'reply', 'repost'] as const;

export const ledgerRecordSchema = z.strictObject({
  author: id,
  cid: z.nullable(checked(z.string(), z.minLength(1), z.maxLength(200))),
  createdAt: time,
  kind: z.enum(ledgerRecordKinds),
  post: id,
  type: z.literal('record'),
  uri: id,
});

export const ledgerReferralSchema = z.strictObject({
  at: time,
  author: id,
  mana: int,
  referee: id,
  /** The rules in force when the referral was made: its reward was fixed then (a later rules change keeps it). */
  rulesVersion: checked(z.number(), z.int(), z.gte(1)),
  type: z.literal('referral'),
});

export const ledgerInteractionSchema = z.strictObject({
  at: time,
  author: id,
  cid: z.nullable(checked(z.string(), z.minLength(1), z.maxLength(200))),
  kind: z.enum(['like', 'reply', 'repost']),
  mana: int,
  post: id,
  record: z.nullable(id),
  rulesVersion: checked(z.number(), z.int(), z.gte(1)),
  type: z.literal('interaction'),
});

export const ledgerEndSchema = z.strictObject({
  mana: int,
  members: int,
  notTraceable: int,
  posts: int,
  records: int,
  type: z.literal('end'),
});

/** Any line of a ledger, by its `type`. */
export const ledgerLineSchema = z.discriminatedUnion('type', [
  ledgerHeaderSchema,
  ledgerMemberSchema,
  ledgerPostSchema,
  ledgerRecordSchema,
  ledgerReferralSchema,
  ledgerInteractionSchema,
  ledgerEndSchema,
]);
export type LedgerLine = z.infer<typeof ledgerLineSchema>;
export type LedgerHeader = z.infer<typeof ledgerHeaderSchema>;
export type LedgerMember = z.infer<typeof ledgerMemberSchema>;
export type LedgerPost = z.infer<typeof ledgerPostSchema>;
export type LedgerRecord = z.infer<typeof ledgerRecordSchema>;
export type LedgerReferral = z.infer<typeof ledgerReferralSchema>;
export type LedgerInteraction = z.infer<typeof ledgerInteractionSchema>;
export type LedgerEnd = z.infer<typeof ledgerEndSchema>;

/** One ledger's entry in `GET /api/ledger`. */
export const ledgerIndexEntrySchema = z.object({
  week: isoWeekSchema,
  state: z.enum(['open', 'closed']),
  editions: z.array(
    z.object({
      edition: checked(z.number(), z.int(), z.gte(1)),
      createdAt: z.string(),
      sha256,
      url: z.string(),
      /** The official account's post that published the hash, or null while unpublished. */
      published: z.nullable(z.object({ uri: z.string(), cid: z.string(), at: z.string() })),
    }),
  ),
});
export type LedgerIndexEntry = z.infer<typeof ledgerIndexEntrySchema>;

export const ledgerIndexResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ network: socialNetworkSchema, weeks: z.array(ledgerIndexEntrySchema) }),
});
export type LedgerIndexResponse = z.infer<typeof ledgerIndexResponseSchema>;

const AT_URI_ERROR = 'uri must be a record address (at://<did>/<collection>/<rkey>)';

/**
 * Query of `GET /api/ledger/:week/proof`: the record whose kept proof is asked for, by its AT URI
 * (`at://<did>/<collection>/<rkey>`: only a repository's records have proofs).
 */
export const ledgerProofQuerySchema = z.object({
  uri: checked(
    z.string({ error: AT_URI_ERROR }),
    z.maxLength(2048, { error: AT_URI_ERROR }),
    z.regex(/^at:\/\/did:[a-z]+:[A-Za-z0-9._:%-]+\/[A-Za-z0-9.-]+\/[A-Za-z0-9._~:-]+$/, {
      error: AT_URI_ERROR,
    }),
  ),
});

/**
 * `GET /api/ledger/:week/proof?uri=…`: the proof the programme kept when it counted a record (a CAR whose root is
 * the author's signed commit, with the tree's path to the record and the record itself, as
 * `com.atproto.sync.getRecord` answers), so a verifier can tell a record deleted since from one that never
 * existed. 404 when the programme kept none.
 */
export const ledgerProofResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    uri: id,
    cid: checked(z.string(), z.minLength(1), z.maxLength(200)),
    /** When the programme read the proof (the commit's own `rev` dates it too). */
    capturedAt: time,
    /** The CAR's bytes, base64 (standard alphabet, padded); at most 1 MiB once decoded. */
    car: checked(z.string(), z.maxLength(1_400_000), z.regex(/^[A-Za-z0-9+/]*={0,2}$/)),
  }),
});
export type LedgerProofResponse = z.infer<typeof ledgerProofResponseSchema>;

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareKeys))
      out[key] = sortedValue((value as Record<string, unknown>)[key]);
    return out;
  }
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw new TypeError(`a ledger holds whole numbers only, not ${value}`);
  return value;
}

/**
 * The canonical JSON of a value (keys in ascending UTF-16 order at every depth, no whitespace, whole numbers
 * only), without the line's `\n`. Encoding a parsed canonical line gives back its exact text.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedValue(value));
}

/** A ledger line as written: canonical JSON and `\n`. */
export function canonicalLine(value: LedgerLine): string {
  return `${canonicalJson(value)}\n`;
}
