import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import type { PostMetrics, SocialAuthor, SocialNetwork } from '../../social/social-network';
import { matchesProgramme } from '../programme/programme.service';
import * as authors from './authors.repository';
import * as posts from './posts.repository';
import * as interactionsRepo from './interactions.repository';
import { saveCursor } from './ingest-state.repository';
import { isPastWindow } from './ingest.service';
import { DAY_MS } from '../../time';
import { recordInteractions, type FoundInteraction } from './interactions.service';

/** The job name under which the stream's cursor (and its errors) are kept in ingest_state. */
export const STREAM_JOB = 'stream';

/** A reference to another post, with its author (an event names both). */
export type PostRef = { id: string; authorId: string };

/**
 * What a network's event stream says, in the engine's terms (the adapter decodes its own records into these):
 * a post was written (perhaps replying to or quoting another), a post was liked or reposted, a record (post,
 * like or repost) was deleted.
 */
export type StreamEvent =
  | {
      type: 'post';
      id: string;
      authorId: string;
      text: string;
      /** Hashtags the post carries (without '#'), also those not written in its text. */
      tags: readonly string[];
      /** Network user ids the post mentions. */
      mentions: readonly string[];
      createdAt: Date;
      replyTo: PostRef | null;
      quotes: PostRef | null;
    }
  | { type: 'like' | 'repost'; id: string; authorId: string; subject: PostRef; createdAt: Date }
  | { type: 'delete'; id: string; authorId: string };

type RecordKind = 'like' | 'repost' | 'reply' | 'quote';
/** A record that points at a post: a like, a repost, or a post's reply or quote edge. */
type Edge = {
  id: string;
  kind: RecordKind;
  authorId: string;
  subject: PostRef;
  createdAt: Date;
  seenAt: number;
};

const METRIC: Record<RecordKind, keyof PostMetrics> = {
  like: 'likes',
  repost: 'reposts',
  reply: 'replies',
  quote: 'quotes',
};

/** Edges whose subject was not known yet, kept in memory for a while (events of different accounts arrive unordered). */
export const ORPHAN_LIMIT = 50_000;
export const ORPHAN_TTL_MS = 15 * 60_000;

const PRUNE_EVERY_MS = 3_600_000;

export type StreamBatchResult = { tracked: number; counted: number; uncounted: number; interactions: number };

/**
 * Stores an event stream's batches for the Mana engine, the same rules and tables as the search path:
 * - posts naming the programme (a keyword, hashtag or official account) by anyone but the official accounts are
 *   tracked (originals and quotes, never replies); the official accounts' own posts are remembered as official;
 * - likes, reposts, replies and quotes of a tracked post move its counts (as a refresh would: the totals job
 *   adds the difference); those of an official post by a linked member become pending interactions, settled
 *   24–72 h later by the settle job, exactly as on the polling networks;
 * - a deleted tracked post stops counting; a deleted like, repost, reply or quote takes back what it gave.
 * Each batch and the stream's cursor are written in ONE transaction, and every counted record is kept by id, so
 * a replay after a crash counts nothing twice.
 *
 * Events of different accounts arrive in no causal order: a like may name a post the stream has not shown yet.
 * Such likes wait in memory (at most ORPHAN_LIMIT, ORPHAN_TTL_MS) and count when their post arrives; an
 * official post is known by its author, so interactions with it never wait. What is lost (a restart, an older
 * like) the refresh job heals: it reads every open post's counts from the network.
 */
export class StreamIngest {
  private readonly orphans = new Map<string, Edge[]>();
  private orphanCount = 0;
  private officials: { version: number; ids: Set<string> } | undefined;
  private prunedAt = 0;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      network: Pick<SocialNetwork, 'authorByHandle'>;
      /** Current profiles of authors by network user id (the ones it cannot give are left out). */
      authorsOf: (ids: readonly string[]) => Promise<SocialAuthor[]>;
      log: { warn: (obj: object, msg: string) => void };
    },
  ) {}

  /** The official accounts' network user ids, resolved from their handles once per rules version. */
  async officialIds(rules: ProgrammeRules, version: number): Promise<Set<string>> {
    if (this.officials?.version === version) return this.officials.ids;
    const ids = new Set<string>();
    for (const handle of rules.officialHandles) {
      const author = await this.deps.network.authorByHandle(handle);
      if (author) ids.add(author.networkUserId);
      else this.deps.log.warn({ handle }, 'stream: an official account handle does not resolve');
    }
    this.officials = { version, ids };
    return ids;
  }

  /** Orphans waiting for their post (for tests and the log). */
  get waiting(): number {
    return this.orphanCount;
  }

  async ingest(
    rules: ProgrammeRules,
    officialIds: ReadonlySet<string>,
    events: readonly StreamEvent[],
    cursor: Record<string, unknown>,
    now: Date,
  ): Promise<StreamBatchResult> {
    const { db } = this.deps;
    const seenAt = now.getTime();
    const postEvents = events.flatMap((e) => (e.type === 'post' ? [e] : []));
    const deletions = events.flatMap((e) => (e.type === 'delete' ? [e] : []));
    const edges: Edge[] = [];
    for (const e of events) {
      if (e.type === 'like' || e.type === 'repost') {
        edges.push({
          id: e.id,
          kind: e.type,
          authorId: e.authorId,
          subject: e.subject,
          createdAt: e.createdAt,
          seenAt,
        });
      } else if (e.type === 'post') {
        if (e.replyTo)
          edges.push({
            id: e.id,
            kind: 'reply',
            authorId: e.authorId,
            subject: e.replyTo,
            createdAt: e.createdAt,
            seenAt,
          });
        if (e.quotes)
          edges.push({
            id: e.id,
            kind: 'quote',
            authorId: e.authorId,
            subject: e.quotes,
            createdAt: e.createdAt,
            seenAt,
          });
      }
    }
    const hashtags = new Set(rules.hashtags.map((t) => t.replace(/^#/, '').toLowerCase()));
    const names = (p: (typeof postEvents)[number]) =>
      matchesProgramme(rules, p.text) ||
      p.tags.some((t) => hashtags.has(t.replace(/^#/, '').toLowerCase())) ||
      p.mentions.some((id) => officialIds.has(id));
    const candidates = postEvents.filter((p) => !p.replyTo && !officialIds.has(p.authorId) && names(p));
    const officialPosts = postEvents.filter((p) => !p.replyTo && officialIds.has(p.authorId));

    // Profiles are read before the transaction (a network call); an author the network cannot describe yet is
    // stored under its id and renamed by the next refresh, which reads authors with the posts' counts.
    const authorIds = [...new Set(candidates.map((p) => p.authorId))];
    let profiles: SocialAuthor[] = [];
    if (authorIds.length > 0) {
      try {
        profiles = await this.deps.authorsOf(authorIds);
      } catch (error) {
        this.deps.log.warn(
          { err: error },
          'stream: profiles not read; authors stored by id until the next refresh',
        );
      }
    }
    const profileOf = new Map(profiles.map((a) => [a.networkUserId, a]));

    const result: StreamBatchResult = { tracked: 0, counted: 0, uncounted: 0, interactions: 0 };
    const resolvedOrphans: string[] = [];
    const unresolved: Edge[] = [];
    await db.transaction().execute(async (trx) => {
      // New tracked posts (a replayed or edited post keeps its row and counts).
      const known = candidates.length
        ? new Set(
            (
              await trx
                .selectFrom('posts')
                .select('id')
                .where(
                  'id',
                  'in',
                  candidates.map((p) => p.id),
                )
                .execute()
            ).map((r) => r.id),
          )
        : new Set<string>();
      const fresh = [...new Map(candidates.filter((p) => !known.has(p.id)).map((p) => [p.id, p])).values()];
      if (fresh.length > 0) {
        const stored = new Map(
          (
            await trx
              .selectFrom('authors')
              .select(['id', 'handle', 'display_name', 'avatar_url'])
              .where(
                'id',
                'in',
                fresh.map((p) => p.authorId),
              )
              .execute()
          ).map((r) => [r.id, r]),
        );
        await authors.upsertAuthors(
          trx,
          fresh.map((p) => {
            const profile = profileOf.get(p.authorId);
            const row = stored.get(p.authorId);
            return {
              id: p.authorId,
              handle: profile?.handle ?? row?.handle ?? p.authorId,
              displayName: profile?.displayName ?? row?.display_name ?? p.authorId,
              avatarUrl: profile?.avatarUrl ?? row?.avatar_url ?? null,
              firstTrackedAt: p.createdAt,
            };
          }),
          now,
        );
        await posts.upsertPosts(
          trx,
          fresh.map((p) => ({
            id: p.id,
            authorId: p.authorId,
            text: p.text,
            createdAt: p.createdAt,
            kind: p.quotes ? ('quote' as const) : ('original' as const),
            likes: 0,
            replies: 0,
            reposts: 0,
            quotes: 0,
          })),
          now,
        );
        result.tracked = fresh.length;
      }
      await interactionsRepo.upsertOfficialPosts(
        trx,
        officialPosts.map((p) => ({ id: p.id, authorId: p.authorId, createdAt: p.createdAt })),
      );

      // Edges that waited for a post this batch brought.
      for (const id of [...fresh.map((p) => p.id), ...officialPosts.map((p) => p.id)]) {
        const waiting = this.orphans.get(id);
        if (waiting) {
          edges.push(...waiting);
          resolvedOrphans.push(id);
        }
      }

      // Which subjects the programme follows.
      const subjectIds = [...new Set(edges.map((e) => e.subject.id))];
      const tracked = new Map<string, { createdAt: Date; live: boolean; metrics: PostMetrics }>();
      const official = new Set<string>();
      for (let i = 0; i < subjectIds.length; i += 1000) {
        const chunk = subjectIds.slice(i, i + 1000);
        for (const r of await trx
          .selectFrom('posts')
          .select(['id', 'created_at', 'status', 'final', 'likes', 'replies', 'reposts', 'quotes'])
          .where('id', 'in', chunk)
          .execute()) {
          tracked.set(r.id, {
            createdAt: r.created_at,
            live: r.status === 'live' && !r.final,
            metrics: { likes: r.likes, replies: r.replies, reposts: r.reposts, quotes: r.quotes },
          });
        }
        for (const r of await trx
          .selectFrom('official_posts')
          .select('id')
          .where('id', 'in', chunk)
          .execute())
          official.add(r.id);
      }
      const isOfficial = (e: Edge) => official.has(e.subject.id) || officialIds.has(e.subject.authorId);
      const relevant = edges.filter((e) => tracked.has(e.subject.id) || isOfficial(e));
      for (const e of edges) if (!tracked.has(e.subject.id) && !isOfficial(e)) unresolved.push(e);

      // Each record counts once, however often it is seen.
      const counted: Edge[] = [];
      for (let i = 0; i < relevant.length; i += 500) {
        const chunk = relevant.slice(i, i + 500);
        const inserted = await trx
          .insertInto('stream_records')
          .values(
            chunk.map((e) => ({
              id: e.id,
              kind: e.kind,
              subject_id: e.subject.id,
              author_id: e.authorId,
              created_at: e.createdAt,
            })),
          )
          .onConflict((oc) => oc.columns(['id', 'kind']).doNothing())
          .returning(['id', 'kind'])
          .execute();
        const fresh = new Set(inserted.map((r) => `${r.id}|${r.kind}`));
        counted.push(...chunk.filter((e) => fresh.delete(`${e.id}|${e.kind}`)));
      }
      result.counted = counted.length;

      const delta = new Map<string, PostMetrics>();
      const move = (subjectId: string, kind: RecordKind, by: number) => {
        const d = delta.get(subjectId) ?? { likes: 0, replies: 0, reposts: 0, quotes: 0 };
        d[METRIC[kind]] += by;
        delta.set(subjectId, d);
      };
      const found: FoundInteraction[] = [];
      for (const e of counted) {
        if (tracked.has(e.subject.id)) move(e.subject.id, e.kind, 1);
        // Interactions with official posts earn linked members Mana (the rules reward likes, replies, reposts).
        if (isOfficial(e) && e.kind !== 'quote' && !officialIds.has(e.authorId))
          found.push({ memberId: e.authorId, postId: e.subject.id, kind: e.kind });
      }

      // Deletions: a record takes back what it gave; a tracked post stops counting; an official post is gone.
      const deletedIds = [...new Set(deletions.map((d) => d.id))];
      const touched: string[] = [];
      for (let i = 0; i < deletedIds.length; i += 1000) {
        const chunk = deletedIds.slice(i, i + 1000);
        const gone = await trx
          .deleteFrom('stream_records')
          .where('id', 'in', chunk)
          .returning(['id', 'kind', 'subject_id'])
          .execute();
        for (const r of gone) {
          result.uncounted++;
          if (!tracked.has(r.subject_id)) {
            const row = await trx
              .selectFrom('posts')
              .select(['id', 'created_at', 'status', 'final', 'likes', 'replies', 'reposts', 'quotes'])
              .where('id', '=', r.subject_id)
              .executeTakeFirst();
            if (!row) continue; // an official post's interaction: the settle job's re-check sees it gone
            tracked.set(row.id, {
              createdAt: row.created_at,
              live: row.status === 'live' && !row.final,
              metrics: { likes: row.likes, replies: row.replies, reposts: row.reposts, quotes: row.quotes },
            });
          }
          move(r.subject_id, r.kind, -1);
        }
        const deletedPosts = await trx
          .selectFrom('posts')
          .select(['id', 'created_at'])
          .where('id', 'in', chunk)
          .where('final', '=', false)
          .execute();
        for (const p of deletedPosts) {
          const author = await posts.markMissing(
            trx,
            { id: p.id, status: 'deleted', final: isPastWindow(rules, p.created_at, now) },
            now,
          );
          if (author) touched.push(author);
          tracked.delete(p.id);
          delta.delete(p.id);
        }
        await trx.updateTable('official_posts').set({ deleted: true }).where('id', 'in', chunk).execute();
      }

      // New counts of live posts inside their refresh window; past it, the refresh's last read decides.
      const updates = [...delta].flatMap(([id, d]) => {
        const post = tracked.get(id);
        if (!post?.live || isPastWindow(rules, post.createdAt, now)) return [];
        const m = post.metrics;
        return [
          {
            id,
            likes: Math.max(0, m.likes + d.likes),
            replies: Math.max(0, m.replies + d.replies),
            reposts: Math.max(0, m.reposts + d.reposts),
            quotes: Math.max(0, m.quotes + d.quotes),
            final: false,
          },
        ];
      });
      touched.push(...(await posts.applyMetrics(trx, updates, now)));
      await authors.markAuthorsDirty(trx, touched);
      result.interactions = await recordInteractions(trx, rules, found, now);
      await saveCursor(trx, STREAM_JOB, cursor, now);
    });

    // Only once the batch is stored: edges that found their post leave the waiting room, others enter it.
    for (const id of resolvedOrphans) {
      this.orphanCount -= this.orphans.get(id)?.length ?? 0;
      this.orphans.delete(id);
    }
    for (const e of unresolved) {
      const list = this.orphans.get(e.subject.id);
      if (list) list.push(e);
      else this.orphans.set(e.subject.id, [e]);
      this.orphanCount++;
    }
    this.evictOrphans(seenAt);
    await this.prune(rules, now);
    return result;
  }

  /**
   * Once an hour, forgets records older than any post they could still move (past the refresh window and the
   * settle deadline): a later deletion of one changes nothing any more, so keeping it would only grow the table.
   */
  private async prune(rules: ProgrammeRules, now: Date): Promise<void> {
    if (now.getTime() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now.getTime();
    const cutoff = new Date(
      now.getTime() - rules.refreshWindowDays * DAY_MS - rules.settleByHours * 3_600_000,
    );
    await this.deps.db.deleteFrom('stream_records').where('created_at', '<', cutoff).execute();
  }

  /** Oldest first (a Map iterates in insertion order): past the age or over the limit, they are dropped. */
  private evictOrphans(now: number): void {
    for (const [id, list] of this.orphans) {
      const first = list[0];
      if (this.orphanCount <= ORPHAN_LIMIT && first && now - first.seenAt < ORPHAN_TTL_MS) break;
      this.orphans.delete(id);
      this.orphanCount -= list.length;
    }
  }
}
