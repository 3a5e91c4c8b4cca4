import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import type { PostMetrics, SocialAuthor, SocialNetwork } from '../../social/social-network';
import * as authors from './authors.repository';
import * as posts from './posts.repository';
import * as interactionsRepo from './interactions.repository';
import { saveCursor } from './ingest-state.repository';
import { isPastWindow } from './ingest.service';
import { applyDeletions, untracedPoints } from './stream-deletions';
import { storeNewPosts } from './stream-new-posts';
import { DAY_MS } from '../../lib/time';
import { recordInteractions, type FoundInteraction } from './interactions.service';
import {
  edgesOf,
  METRIC,
  programmePosts,
  STREAM_JOB,
  type Edge,
  type PostEvent,
  type RecordKind,
  type StreamEvent,
} from './stream-events';
import { Orphans } from './stream-orphans';
import { applyRenames, confirmedRenames, type CurrentHandle } from './stream-identity';
import * as records from './stream-records.repository';
import { officialAccountIds } from '../programme/official-accounts';

export { STREAM_JOB, type PostRef, type StreamEvent } from './stream-events';
export { ORPHAN_LIMIT, ORPHAN_TTL_MS } from './stream-orphans';

const PRUNE_EVERY_MS = 3_600_000;

export type StreamBatchResult = {
  tracked: number;
  counted: number;
  uncounted: number;
  interactions: number;
  /** Posts the programme follows from now on (new tracked and official posts) and the accounts now involved. */
  followed: string[];
  involved: string[];
};

type Deps = {
  db: Kysely<Database>;
  network: Pick<SocialNetwork, 'authorByHandle'>;
  /** Current profiles of authors by network user id (the ones it cannot give are left out). */
  authorsOf: (ids: readonly string[]) => Promise<SocialAuthor[]>;
  log: { warn: (obj: object, msg: string) => void };
  /** An account's confirmed handle after an identity change; without it, the refresh and relinks rename. */
  currentHandle?: CurrentHandle;
};

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
 * Such likes wait in memory (stream-orphans.ts) and count when their post arrives; an official post is known by
 * its author, so interactions with it never wait. What is lost (a restart, an older like) the refresh job heals:
 * it reads every open post's counts from the network.
 */
export class StreamIngest {
  private readonly orphans = new Orphans();
  private officials: { version: number; ids: Set<string> } | undefined;
  private prunedAt = 0;

  constructor(private readonly deps: Deps) {}

  /** The official accounts' network user ids for a rules version (each handle resolved once, then kept by id). */
  async officialIds(rules: ProgrammeRules, version: number): Promise<Set<string>> {
    if (this.officials?.version === version) return this.officials.ids;
    // Kept by id once resolved (modules/programme/official-accounts.ts): a handle that changes hands changes nothing.
    const { ids, unresolved } = await officialAccountIds(
      this.deps.db,
      rules,
      async (handle) => (await this.deps.network.authorByHandle(handle))?.networkUserId ?? null,
    );
    for (const handle of unresolved)
      this.deps.log.warn({ handle }, 'stream: an official account handle does not resolve');
    this.officials = { version, ids };
    return ids;
  }

  /** Orphans waiting for their post (for tests and the log). */
  get waiting(): number {
    return this.orphans.size;
  }

  /**
   * Stores one batch. With a `cursor`, the stream's cursor is saved in the same transaction; without one (posts
   * found outside the stream, e.g. filling a gap), only the events are stored, by the same rules: a post already
   * tracked keeps its row and counts, so a post found twice counts once. `waiting` is saved with the cursor
   * (ingest-state.repository.ts: saveCursor).
   */
  async ingest(
    rules: ProgrammeRules,
    officialIds: ReadonlySet<string>,
    events: readonly StreamEvent[],
    cursor: Record<string, unknown> | null,
    now: Date,
    waiting: Record<string, unknown> | null = null,
  ): Promise<StreamBatchResult> {
    const seenAt = now.getTime();
    const deletions = [...new Set(events.flatMap((e) => (e.type === 'delete' ? [e.id] : [])))];
    const edges = edgesOf(events, seenAt);
    const { candidates, officialPosts } = programmePosts(rules, officialIds, events);
    const profileOf = await this.profiles(candidates);
    const renames = await confirmedRenames(this.deps.db, events, this.deps.currentHandle, this.deps.log);

    const result: StreamBatchResult = {
      tracked: 0,
      counted: 0,
      uncounted: 0,
      interactions: 0,
      followed: [],
      involved: [],
    };
    const resolvedOrphans: string[] = [];
    const unresolved: Edge[] = [];
    await this.deps.db.transaction().execute(async (trx) => {
      const fresh = await storeNewPosts(trx, candidates, profileOf, now);
      result.tracked = fresh.length;
      result.followed.push(...fresh.map((p) => p.id), ...officialPosts.map((p) => p.id));
      result.involved.push(...fresh.map((p) => p.authorId));
      await interactionsRepo.upsertOfficialPosts(
        trx,
        officialPosts.map((p) => ({ id: p.id, authorId: p.authorId, createdAt: p.createdAt })),
      );

      // Edges that waited for a post this batch brought.
      for (const id of [...fresh.map((p) => p.id), ...officialPosts.map((p) => p.id)]) {
        const waiting = this.orphans.waitingFor(id);
        if (waiting) {
          edges.push(...waiting);
          resolvedOrphans.push(id);
        }
      }

      // Which subjects the programme follows; each record counts once, however often it is seen.
      const { tracked, official } = await records.readSubjects(trx, [
        ...new Set(edges.map((e) => e.subject.id)),
      ]);
      const isOfficial = (e: Edge) => official.has(e.subject.id) || officialIds.has(e.subject.authorId);
      const relevant = edges.filter((e) => tracked.has(e.subject.id) || isOfficial(e));
      for (const e of edges) if (!tracked.has(e.subject.id) && !isOfficial(e)) unresolved.push(e);
      // A record counts where its post's counts still move (live, inside its refresh window, not deleted in this
      // batch); else it is kept void with the reason, as evidence that counts nothing (issue 30).
      const deletedNow = new Set(deletions);
      const countsMove = (id: string) => {
        const post = tracked.get(id);
        return !!post?.live && !isPastWindow(rules, post.createdAt, now) && !deletedNow.has(id);
      };
      const voidReason = (e: Edge): records.VoidReason | null => {
        const post = tracked.get(e.subject.id);
        if (!post || countsMove(e.subject.id)) return null;
        return post.final || isPastWindow(rules, post.createdAt, now) ? 'late' : 'post-deleted';
      };
      const counted = await records.countOnce(trx, relevant, voidReason, now, deletedNow);
      // Their proofs too (the records that count; a void one proves nothing the board uses): a like deleted after
      // its week closed is then "deleted since", not missing (docs/ledger-format.md).
      await records.keepProofs(
        trx,
        counted.filter((e) => e.proof && voidReason(e) === null),
        now,
      );
      result.counted = counted.length;
      result.involved.push(...counted.map((e) => e.authorId));

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
          found.push({
            memberId: e.authorId,
            postId: e.subject.id,
            kind: e.kind,
            recordId: e.id,
            recordCid: e.cid,
          });
      }

      const deleted = await applyDeletions(
        trx,
        rules,
        deletions,
        tracked,
        move,
        (id) => delta.delete(id),
        now,
      );
      result.uncounted = deleted.uncounted;
      const touched = deleted.touched;

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
      // A record that went while its post's counts no longer moved took no point back: the point stays, without
      // its record (counts = counted records + untraced, for the records page and the ledger).
      await records.addUntraced(trx, untracedPoints(deleted.takenBack, new Set(updates.map((u) => u.id))));
      touched.push(...(await applyRenames(trx, renames, now)));
      await authors.markAuthorsDirty(trx, touched);
      result.interactions = await recordInteractions(trx, rules, found, now);
      if (cursor) await saveCursor(trx, STREAM_JOB, cursor, now, waiting);
    });

    // Only once the batch is stored: edges that found their post leave the waiting room, others enter it.
    for (const id of resolvedOrphans) this.orphans.release(id);
    for (const e of unresolved) this.orphans.add(e);
    this.orphans.evict(seenAt);
    await this.prune(rules, now);
    return result;
  }

  /**
   * Profiles are read before the transaction (a network call); an author the network cannot describe yet is
   * stored under its id and renamed by the next refresh, which reads authors with the posts' counts.
   */
  private async profiles(candidates: readonly PostEvent[]): Promise<Map<string, SocialAuthor>> {
    const authorIds = [...new Set(candidates.map((p) => p.authorId))];
    if (authorIds.length === 0) return new Map();
    try {
      return new Map((await this.deps.authorsOf(authorIds)).map((a) => [a.networkUserId, a]));
    } catch (error) {
      this.deps.log.warn(
        { err: error },
        'stream: profiles not read; authors stored by id until the next refresh',
      );
      return new Map();
    }
  }

  /**
   * Once an hour, forgets void records that went void before any post they name could still move (the refresh
   * window and the settle deadline ago). Counted records are kept for good: they are the public evidence behind
   * the board (the records page, the weekly ledger, a later check); docs/networks.md says what that costs.
   */
  private async prune(rules: ProgrammeRules, now: Date): Promise<void> {
    if (now.getTime() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now.getTime();
    await records.pruneVoidRecords(
      this.deps.db,
      new Date(now.getTime() - rules.refreshWindowDays * DAY_MS - rules.settleByHours * 3_600_000),
    );
  }
}
