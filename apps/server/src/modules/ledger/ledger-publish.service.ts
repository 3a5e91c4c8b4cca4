import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { JobLog } from '../../lib/job-types';
import { enUsNumber } from '../../lib/text-measure';
import type { LedgerPublishing } from '../../social/ledger-publishing';
import { activeRules } from '../programme/programme.service';
import * as store from './ledger-store.repository';
import { editionUrl } from './ledger.service';

/** The first retry after a failed attempt; each next one waits twice as long, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 3_600_000;

/**
 * The post that publishes an edition's hash (docs/ledger-format.md): the ISO week, the board's size, the
 * edition's URL and its hash. A correction says so. The URL is also the link a network can make of it.
 */
export function publicationText(
  edition: { week: string; edition: number; members: number; mana: number; sha256: string },
  publicOrigin: string,
): { text: string; link: string } {
  const [year, week] = edition.week.split('-W');
  const link = editionUrl(publicOrigin, edition.week, edition.edition);
  const correction = edition.edition > 1 ? ` (correction, edition ${edition.edition})` : '';
  const who = `${enUsNumber(edition.members)} ${edition.members === 1 ? 'member' : 'members'}`;
  return {
    text: `Week ${Number(week)} of ${year}${correction}: ${who} earned ${enUsNumber(edition.mana)} Mana. Ledger: ${link} ${edition.sha256}`,
    link,
  };
}

/** An edition as the publication and the console read it. */
export function publicationOf(row: store.EditionRow, publicOrigin: string) {
  return publicationText(
    {
      week: row.week,
      edition: row.edition,
      members: row.members ?? 0,
      mana: Number(row.mana ?? 0),
      sha256: row.sha256 ?? '',
    },
    publicOrigin,
  );
}

export type PublishOutcome = { published: number; failed: number };

/**
 * The close job's second step: every stored edition whose hash is not published yet, and whose next attempt is
 * due, is posted from the official account (the network's adapter; at most once: it finds an earlier attempt's
 * post by the hash). A failure is recorded with its reason and retried later, 1 minute after the first, doubling
 * up to 6 hours; the error text is the adapter's, which never holds a credential.
 */
export async function publishDue(
  db: Kysely<Database>,
  options: { publisher: LedgerPublishing; publicOrigin: string; now: Date; log: JobLog },
): Promise<PublishOutcome> {
  const outcome: PublishOutcome = { published: 0, failed: 0 };
  const due = await store.duePublications(db, options.now);
  if (due.length === 0) return outcome;
  const officialHandle = (await activeRules(db)).rules.officialHandles[0] ?? '';
  for (const row of due) {
    const key = { week: row.week, edition: row.edition };
    const { text, link } = publicationOf(row, options.publicOrigin);
    try {
      const post = await options.publisher.publishLedger({
        text,
        link,
        marker: row.sha256 ?? text,
        officialHandle,
      });
      await store.markPublished(db, key, post);
      options.log.info({ ...key, uri: post.uri }, 'ledger: hash published');
      outcome.published++;
    } catch (error) {
      const attempts = row.publish_attempts + 1;
      const wait = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempts - 1));
      const reason = error instanceof Error ? error.message : String(error);
      await store.markPublishFailed(db, key, {
        attempts,
        error: reason.slice(0, 500),
        nextAt: new Date(options.now.getTime() + wait),
      });
      options.log.warn(
        { ...key, attempts, retryInMs: wait, reason },
        'ledger: hash not published; retrying later',
      );
      outcome.failed++;
    }
  }
  return outcome;
}
