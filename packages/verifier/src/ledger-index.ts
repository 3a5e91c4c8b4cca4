import { ledgerIndexResponseSchema, type LedgerIndexEntry } from '@manaboard/contract/ledger';
import type { Http } from './http';

export type IndexData = { network: 'bluesky' | 'x'; weeks: LedgerIndexEntry[] };
export type Edition = LedgerIndexEntry['editions'][number];

/** The ledger to verify: its week, and the edition the index lists (null for an open week, which has none yet). */
export type Choice = { week: string; state: 'open' | 'closed'; edition: Edition | null; url: string };

/** A problem with what was asked for (exit 2) or with what the origin answered (exit 1), as one sentence. */
export class ChoiceError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
    this.name = 'ChoiceError';
  }
}

/** Reads `<origin>/api/ledger` and parses it with the contract's schema. */
export async function readIndex(http: Http, origin: string): Promise<IndexData> {
  const url = new URL('/api/ledger', origin).href;
  let body: Uint8Array;
  try {
    body = (await http.get(url, { accept: 'application/json', maxBytes: 10_000_000 })).body;
  } catch (error) {
    throw new ChoiceError(`the ledger index could not be read: ${(error as Error).message}`, false);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new ChoiceError(`the ledger index (${url}) is not JSON`, false);
  }
  const parsed = ledgerIndexResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ChoiceError(
      `the ledger index (${url}) is not one: ${issue?.path.join('.') || 'its shape'} ${issue?.message ?? ''}`.trim(),
      false,
    );
  }
  return parsed.data.data;
}

/** The week (default: the newest closed one) and edition (default: its newest) to verify. */
export function chooseLedger(index: IndexData, origin: string, week?: string, edition?: number): Choice {
  const entry = week
    ? index.weeks.find((w) => w.week === week)
    : index.weeks.find((w) => w.state === 'closed' && w.editions.length > 0);
  if (!entry) {
    throw week
      ? new ChoiceError(`the index lists no ledger for ${week}`, true)
      : new ChoiceError('the index lists no closed week yet: name an open one with --week', true);
  }
  const newest = [...entry.editions].sort((a, b) => b.edition - a.edition)[0] ?? null;
  const chosen = edition === undefined ? newest : (entry.editions.find((e) => e.edition === edition) ?? null);
  if (edition !== undefined && !chosen) {
    throw new ChoiceError(`the index lists no edition ${edition} of ${entry.week}`, true);
  }
  if (entry.state === 'closed' && !chosen)
    throw new ChoiceError(`the index lists no edition of ${entry.week}`, false);
  const path =
    chosen && entry.state === 'closed'
      ? `/api/ledger/${entry.week}/${chosen.edition}`
      : `/api/ledger/${entry.week}`;
  return { week: entry.week, state: entry.state, edition: chosen, url: new URL(path, origin).href };
}
