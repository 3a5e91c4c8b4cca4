import type { AdminLedgerResponse, AdminLedgerWeek } from '@manaboard/contract/admin';
import { activeRules } from '../programme/programme.service';
import { closeableAt } from './ledger-close.service';
import { firstPostAt } from './ledger-read.repository';
import { publicationOf } from './ledger-publish.service';
import * as store from './ledger-store.repository';
import { editionUrl, type LedgerDeps } from './ledger.service';
import { ledgerWeek, weekAt, weeksBetween } from './ledger-week';

/**
 * The console's view of the ledger: every week from the programme's first tracked post, newest first; an open
 * week with the earliest it closes, a closed one with each edition, its hash, the post that published it (or
 * the attempts, the last reason and the next try) and the exact text to post by hand.
 */
export async function consoleLedger(
  deps: LedgerDeps,
  options: { automatic: boolean },
): Promise<AdminLedgerResponse['data']> {
  const { rules } = await activeRules(deps.db);
  const first = await firstPostAt(deps.db);
  const editions = new Map<string, AdminLedgerWeek['editions']>();
  for (const e of await store.storedEditions(deps.db)) {
    const list = editions.get(e.week) ?? [];
    list.push({
      edition: e.edition,
      createdAt: e.created_at.toISOString(),
      createdBy: e.created_by,
      reason: e.reason,
      sha256: e.sha256 ?? '',
      byteLength: Number(e.byte_length ?? 0),
      members: e.members ?? 0,
      mana: Number(e.mana ?? 0),
      url: editionUrl(deps.publicOrigin, e.week, e.edition),
      text: publicationOf(e, deps.publicOrigin).text,
      published:
        e.published_uri && e.published_cid && e.published_at
          ? {
              uri: e.published_uri,
              cid: e.published_cid,
              at: e.published_at.toISOString(),
              url: e.published_url,
            }
          : null,
      publishing: {
        attempts: e.publish_attempts,
        error: e.publish_error,
        nextAt: e.publish_next_at?.toISOString() ?? null,
      },
    });
    editions.set(e.week, list);
  }
  const weeks = first ? weeksBetween(weekAt(first), weekAt(new Date(deps.now()))).map((w) => w.week) : [];
  const all = [...new Set([...weeks, ...editions.keys()])].sort().reverse();
  return {
    automatic: options.automatic,
    officialAccount: rules.officialHandles[0] ?? '',
    weeks: all.map((week) => {
      const list = editions.get(week) ?? [];
      return {
        week,
        state: list.length > 0 ? 'closed' : 'open',
        closesAt: list.length > 0 ? null : closeableAt(ledgerWeek(week), rules).toISOString(),
        editions: list,
      };
    }),
  };
}
