import type { LedgerIndexEntry, LedgerIndexResponse } from '@manaboard/contract/ledger';
import { NotFoundError } from '../../lib/errors';
import { activeRules } from '../programme/programme.service';
import type { LedgerContext } from './ledger-close.service';
import { ensureRefereeSalt, firstPostAt } from './ledger-read.repository';
import { inSnapshot } from './ledger-snapshot';
import * as store from './ledger-store.repository';
import { storedBytes, storedGzip } from './ledger-store.service';
import { ledgerWeek, weekAt, weeksBetween } from './ledger-week';
import { ledgerText } from './ledger-writer';
import type { NetworkName } from '../../social/social-network';

export type LedgerDeps = LedgerContext & { network: NetworkName; now: () => number; publicOrigin: string };

/** Where an edition is served (and what the published post links to). */
export function editionUrl(publicOrigin: string, week: string, edition: number): string {
  return `${publicOrigin}/api/ledger/${week}/${edition}`;
}

/** A document of the ledger: a stored edition's exact bytes, or the open week written as it stands. */
export type LedgerDocument =
  | {
      kind: 'stored';
      edition: store.EditionRow & { sha256: string };
      /** The stored gzip stream as it is (for a client that takes gzip), or the bytes themselves. */
      gzip: () => AsyncIterable<Buffer>;
      bytes: () => AsyncIterable<Buffer>;
    }
  | { kind: 'open'; body: AsyncIterable<Buffer> };

function stored(deps: LedgerDeps, row: store.EditionRow): LedgerDocument {
  if (!row.sha256) throw new Error(`stored ledger ${row.week}/${row.edition} has no hash`);
  return {
    kind: 'stored',
    edition: { ...row, sha256: row.sha256 },
    gzip: () => storedGzip(deps.db, { week: row.week, edition: row.edition }),
    bytes: () => storedBytes(deps.db, { week: row.week, edition: row.edition }),
  };
}

/**
 * `GET /api/ledger`: every week from the programme's first tracked post to now, newest first: open, or closed
 * with each edition (number, date, hash, URL, and the official account's post of its hash once published).
 */
export async function ledgerIndex(deps: LedgerDeps): Promise<LedgerIndexResponse> {
  const first = await firstPostAt(deps.db);
  const editions = new Map<string, LedgerIndexEntry['editions']>();
  for (const e of await store.storedEditions(deps.db)) {
    const list = editions.get(e.week) ?? [];
    list.push({
      edition: e.edition,
      createdAt: e.created_at.toISOString(),
      sha256: e.sha256 ?? '',
      url: editionUrl(deps.publicOrigin, e.week, e.edition),
      published:
        e.published_uri && e.published_cid && e.published_at
          ? { uri: e.published_uri, cid: e.published_cid, at: e.published_at.toISOString() }
          : null,
    });
    editions.set(e.week, list);
  }
  const weeks = first ? weeksBetween(weekAt(first), weekAt(new Date(deps.now()))).map((w) => w.week) : [];
  // A closed week outside that range (data removed since) is still listed: its ledger stays served.
  const all = [...new Set([...weeks, ...editions.keys()])].sort().reverse();
  return {
    success: true,
    data: {
      network: deps.network,
      weeks: all.map((week) => {
        const list = editions.get(week) ?? [];
        return { week, state: list.length > 0 ? ('closed' as const) : ('open' as const), editions: list };
      }),
    },
  };
}

/**
 * `GET /api/ledger/:week`: the newest edition of a closed week, or the open week as it stands (built as it is
 * read, in one snapshot where the database has them). A week before the programme's first tracked post or after
 * this one has no ledger (404); a week 53 its year does not have is a 400.
 */
export async function weekDocument(deps: LedgerDeps, week: string): Promise<LedgerDocument> {
  const range = ledgerWeek(week);
  const newest = await store.storedEdition(deps.db, week);
  if (newest) return stored(deps, newest);
  const first = await firstPostAt(deps.db);
  const now = new Date(deps.now());
  if (!first || range.to <= weekAt(first).from || range.from > now)
    throw new NotFoundError(`No ledger for week ${week}`);
  const active = await activeRules(deps.db);
  const plan = {
    week: range,
    network: deps.network,
    state: 'open' as const,
    closedAt: null,
    edition: 1,
    activeVersion: active.version,
  };
  await ensureRefereeSalt(deps.db);
  return { kind: 'open', body: inSnapshot(deps.db, deps.kind, (readers) => ledgerText(readers, plan)) };
}

/** `GET /api/ledger/:week/:edition`: one stored edition, byte for byte (404 when the week has no such edition). */
export async function editionDocument(
  deps: LedgerDeps,
  week: string,
  edition: number,
): Promise<LedgerDocument> {
  ledgerWeek(week);
  const row = await store.storedEdition(deps.db, week, edition);
  if (!row) throw new NotFoundError(`Week ${week} has no ledger edition ${edition}`);
  return stored(deps, row);
}
