import { ingestSearchPage } from '../modules/mana/ingest.service';
import { readState } from '../modules/mana/ingest-state.repository';
import { activeRules, programmeQuery } from '../modules/programme/programme.service';
import { compareIds } from '../modules/mana/scoring';
import { SEARCH_REACH_MARGIN_MS, type Job } from './job';

/** Pages one run reads at most; a longer backlog resumes on the next run from the stored page cursor. */
export const SEARCH_PAGES_PER_RUN = 50;

type SearchCursor = {
  /** Everything up to this id is stored (X since_id, a cursor on other networks). */
  sinceId?: string;
  /** Creation time of the post `sinceId` names, to tell when it fell out of the search's reach. */
  sinceAt?: string;
  /** A run in progress: pages stored so far, where to go on, and the newest post it saw. */
  run?: { sinceId?: string; newestId: string; newestAt: string; nextCursor: string; startedAt: string };
};

/**
 * search: the programme query (structured; the network adapter writes its syntax), newest first, paging back
 * to the last stored post (`since_id`). Each page is
 * stored with its cursor in one transaction; `sinceId` moves to the run's newest post only after its last page,
 * so a crash mid-run resumes at the next page and never skips or double-counts a post.
 */
export const searchJob: Job = {
  name: 'search',
  async run({ db, network, clock }) {
    const { rules } = await activeRules(db);
    const query = programmeQuery(rules);
    // The network's search reaches so far back (X: 7 days); a since_id older than that (minus a margin) is
    // dropped, not sent.
    const reach = network.searchReachMs - SEARCH_REACH_MARGIN_MS;
    const now = () => new Date(clock.now());
    const stored = ((await readState(db, 'search'))?.cursor ?? {}) as SearchCursor;
    const inReach = (iso: string | undefined) => iso !== undefined && clock.now() - Date.parse(iso) < reach;

    let run = stored.run && inReach(stored.run.startedAt) ? stored.run : undefined;
    const sinceId = run ? run.sinceId : inReach(stored.sinceAt) ? stored.sinceId : undefined;
    const sinceAt = sinceId ? stored.sinceAt : undefined;
    let calls = 0;
    let tracked = 0;
    let seen = 0;
    // Async, so a network call that throws at once still fails only where its page is awaited.
    const fetchPage = async (nextCursor: string | undefined) =>
      network.findPosts(query, {
        ...(sinceId ? { sinceId } : {}),
        ...(nextCursor ? { cursor: nextCursor } : {}),
      });
    let pending = fetchPage(run?.nextCursor);
    for (let pageNumber = 0; pageNumber < SEARCH_PAGES_PER_RUN; pageNumber++) {
      const startedAt = run?.startedAt ?? now().toISOString();
      const page = await pending;
      calls++;
      seen += page.posts.length;
      const newest = page.posts.reduce<(typeof page.posts)[number] | undefined>(
        (best, post) => (!best || compareIds(post.id, best.id) > 0 ? post : best),
        undefined,
      );
      const newestId = run?.newestId ?? newest?.id;
      const newestAt = run?.newestAt ?? newest?.createdAt.toISOString();
      const base = { ...(sinceId ? { sinceId, sinceAt } : {}) };
      const cursor: SearchCursor =
        page.nextCursor && newestId && newestAt
          ? {
              ...base,
              run: {
                ...(sinceId ? { sinceId } : {}),
                newestId,
                newestAt,
                nextCursor: page.nextCursor,
                startedAt,
              },
            }
          : newestId && newestAt
            ? { sinceId: newestId, sinceAt: newestAt }
            : base;
      // The next page is asked for while this one is stored (the network's answer time and the database's work
      // overlap). Only the stored cursor says what is done: if storing fails, the next page is never used and
      // the next run asks for it again.
      if (cursor.run && pageNumber + 1 < SEARCH_PAGES_PER_RUN) {
        pending = fetchPage(cursor.run.nextCursor);
        // Its failure surfaces when it is awaited; until then it must not count as unhandled.
        pending.catch(() => undefined);
      }
      tracked += await ingestSearchPage(db, rules, page, { job: 'search', value: cursor }, now());
      if (!cursor.run) break;
      run = cursor.run;
    }
    return { calls, counts: { seen, tracked } };
  },
};
