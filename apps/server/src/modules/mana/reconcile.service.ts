import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database, Db } from '../../db/schema';
import type {
  MissingPost,
  PostMetrics,
  SocialAuthor,
  SocialPost,
  StreamAuthority,
} from '../../social/social-network';
import * as posts from './posts.repository';
import { readState } from './ingest-state.repository';
import { STREAM_JOB } from './stream-events';
import { finishMetricsBatch, isPastWindow } from './ingest.service';
import { setUntraced } from './untraced.repository';

const METRICS = ['likes', 'replies', 'reposts', 'quotes'] as const;

/** Which count a stream record moves (a like record counts one like, and so on). */
const METRIC_OF: Record<string, (typeof METRICS)[number]> = {
  like: 'likes',
  reply: 'replies',
  repost: 'reposts',
  quote: 'quotes',
};

/**
 * Whether the stream has seen everything up to about now: the commit time of the last event it stored (its
 * cursor in ingest_state) is within `caughtUpMs`. A stream that never stored an event, or a quiet relay, reads
 * as behind, which only makes the reconcile more careful (it neither raises nor deletes).
 */
export async function streamCaughtUp(db: Db, authority: StreamAuthority, now: Date): Promise<boolean> {
  const state = await readState(db, STREAM_JOB);
  const time = (state?.cursor as { time?: unknown } | undefined)?.time;
  const at = typeof time === 'string' ? Date.parse(time) : NaN;
  return !Number.isNaN(at) && now.getTime() - at <= authority.caughtUpMs;
}

type Counts = { saw: PostMetrics; counted: PostMetrics };

/**
 * What the stream itself saw on each post (`saw`: its records not deleted since, counted or kept void but for
 * duplicates, as ADR 013 compares a reading with) and the records that count (`counted`: state 'counted', streamed or read from the
 * AppView's lists), by metric.
 */
async function streamCounts(db: Db, ids: readonly string[]): Promise<Map<string, Counts>> {
  const counts = new Map<string, Counts>();
  if (ids.length === 0) return counts;
  const rows = await db
    .selectFrom('stream_records')
    .select((eb) => [
      'subject_id',
      'kind',
      eb.fn.countAll<string>().filterWhere('state', '=', 'counted').as('counted'),
      eb.fn
        .countAll<string>()
        .filterWhere((w) =>
          // A duplicate (an account's second like of the post) is no record the AppView counts: it keeps one.
          w.or([w('state', '=', 'counted'), w('void_reason', 'not in', ['deleted', 'duplicate'])]),
        )
        .as('saw'),
    ])
    .where('subject_id', 'in', ids)
    .groupBy(['subject_id', 'kind'])
    .execute();
  for (const r of rows) {
    const metric = METRIC_OF[r.kind];
    if (!metric) continue;
    const c = counts.get(r.subject_id) ?? { saw: zero(), counted: zero() };
    c.saw[metric] = Number(r.saw);
    c.counted[metric] = Number(r.counted);
    counts.set(r.subject_id, c);
  }
  return counts;
}

const zero = (): PostMetrics => ({ likes: 0, replies: 0, reposts: 0, quotes: 0 });

/**
 * One count after a reconciling read (ADR 013): the reading replaces the stored count only when the stream is
 * caught up and the reading holds at least everything the stream itself counted (else the AppView is behind the
 * stream on this post, and its lower number says nothing). So a reading raises a count the stream missed (a gap,
 * likes that waited for their post when the worker restarted), takes back a count the stream added twice on top
 * of an earlier raise (a replay), and never lowers a count below what the stream saw.
 */
export function reconciledCount(
  stored: number,
  streamSaw: number,
  reading: number,
  caughtUp: boolean,
): number {
  return caughtUp && reading >= streamSaw ? reading : stored;
}

/**
 * The refresh's batch on a stream network, in one transaction with the refresh's cursor. Found posts get
 * reconciled counts (above) and lose any `missing_since`; a post deleted by its own delete event stays deleted
 * whatever a lagging AppView still shows. A post not found is given a `missing_since` and deleted only when that is
 * older than the grace period while the stream is caught up; until then it keeps counting and stays open (not
 * final), to be read again. A post deleted that way comes back if the AppView shows it again.
 */
export async function reconcileStreamBatch(
  db: Kysely<Database>,
  rules: ProgrammeRules,
  authority: StreamAuthority,
  batch: ReadonlyArray<posts.OpenPost>,
  answer: { posts: SocialPost[]; missing: MissingPost[]; authors?: SocialAuthor[] },
  cursor: { job: string; value: Record<string, unknown> },
  now: Date,
): Promise<{ raised: number; kept: number; deleted: number }> {
  const asked = new Set(batch.map((p) => p.id));
  const result = { raised: 0, kept: 0, deleted: 0 };
  await db.transaction().execute(async (trx) => {
    const caughtUp = await streamCaughtUp(trx, authority, now);
    const ids = [...asked];
    const saw = await streamCounts(trx, ids);
    const rows = new Map(
      (
        await trx
          .selectFrom('posts')
          .select(['id', 'created_at', 'status', 'missing_since', ...METRICS])
          .where('id', 'in', ids)
          .where('final', '=', false)
          .execute()
      ).map((r) => [r.id, r]),
    );
    const touched: string[] = [];
    const updates: Array<PostMetrics & { id: string; final: boolean }> = [];
    const traced: Array<PostMetrics & { id: string }> = [];
    const found: string[] = [];
    for (const post of answer.posts) {
      const row = rows.get(post.id);
      if (!row) continue;
      found.push(post.id);
      const final = isPastWindow(rules, row.created_at, now);
      if (row.status === 'deleted' && row.missing_since === null) {
        // Deleted by its own delete event: the stream saw it go; an AppView still showing it is behind.
        const author = await posts.markMissing(trx, { id: post.id, status: 'deleted', final }, now);
        if (author) touched.push(author);
        continue;
      }
      const records = saw.get(post.id) ?? { saw: zero(), counted: zero() };
      const next = zero();
      const untraced = zero();
      for (const m of METRICS) {
        next[m] = reconciledCount(row[m], records.saw[m], post.metrics[m], caughtUp);
        if (next[m] > row[m]) result.raised++;
        if (post.metrics[m] < row[m] && next[m] === row[m]) result.kept++;
        // What a raise added has no record yet: "not traceable" until the trace job reads the records behind it.
        untraced[m] = Math.max(0, next[m] - records.counted[m]);
      }
      updates.push({ id: post.id, ...next, final });
      traced.push({ id: post.id, ...untraced });
    }
    touched.push(...(await posts.applyMetrics(trx, updates, now)));
    await setUntraced(trx, traced);
    if (found.length > 0) {
      await trx
        .updateTable('posts')
        .set({ missing_since: null })
        .where('id', 'in', found)
        .where('status', '=', 'live')
        .where('missing_since', 'is not', null)
        .execute();
    }

    for (const missing of answer.missing) {
      const row = rows.get(missing.id);
      if (!row || missing.reason === 'other') continue;
      const final = isPastWindow(rules, row.created_at, now);
      if (missing.reason === 'protected' || row.status !== 'live') {
        const author = await posts.markMissing(
          trx,
          { id: missing.id, status: missing.reason, final, missingSince: row.missing_since ?? undefined },
          now,
        );
        if (author) touched.push(author);
        continue;
      }
      const since = row.missing_since ?? now;
      if (row.missing_since === null) {
        await trx.updateTable('posts').set({ missing_since: now }).where('id', '=', missing.id).execute();
      }
      if (caughtUp && now.getTime() - since.getTime() >= authority.missingGraceMs) {
        const author = await posts.markMissing(
          trx,
          { id: missing.id, status: 'deleted', final, missingSince: since },
          now,
        );
        if (author) touched.push(author);
        result.deleted++;
      }
    }

    await finishMetricsBatch(trx, answer.authors, touched, cursor, now);
  });
  return result;
}
