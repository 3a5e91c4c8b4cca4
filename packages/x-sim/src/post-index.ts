import { postTerms, type PostTerms } from './post-terms';
import { compareIds } from './snowflake';
import type { SimPost } from './world-types';

const byId = (a: SimPost, b: SimPost) => compareIds(a.id, b.id);

/**
 * Posts in id order (= creation order: ids are snowflakes). Appends are O(1); a post created out of order
 * marks the list for one re-sort at the next read (TimSort: nearly linear on a nearly sorted list), so
 * building a world of 100k posts never shifts arrays around.
 */
class SortedPosts {
  private readonly items: SimPost[] = [];
  private sorted = true;

  add(post: SimPost): void {
    const last = this.items[this.items.length - 1];
    if (last && compareIds(last.id, post.id) > 0) this.sorted = false;
    this.items.push(post);
  }

  read(): readonly SimPost[] {
    if (!this.sorted) {
      this.items.sort(byId);
      this.sorted = true;
    }
    return this.items;
  }
}

/** The first position whose id is not below `id`. */
export function lowerBound(list: readonly SimPost[], id: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareIds((list[mid] as SimPost).id, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position created after `ms`. */
export function afterTime(list: readonly SimPost[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as SimPost).createdAt <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function addTo(map: Map<string, SortedPosts>, key: string, post: SimPost): void {
  let list = map.get(key);
  if (!list) map.set(key, (list = new SortedPosts()));
  list.add(post);
}

const EMPTY: readonly SimPost[] = [];

/**
 * Every post of the world in creation order, plus the same order per author, per conversation and per token
 * of the text. Search walks the smallest list that must contain every match, newest first, and stops at
 * the page size, so a page costs what it reads, not what the world holds.
 */
export class PostIndex {
  private readonly timeline = new SortedPosts();
  private readonly byAuthor = new Map<string, SortedPosts>();
  private readonly byConversation = new Map<string, SortedPosts>();
  private readonly byWord = new Map<string, SortedPosts>();

  add(post: SimPost): void {
    const terms = postTerms(post.text);
    this.timeline.add(post);
    addTo(this.byAuthor, post.authorId, post);
    addTo(this.byConversation, post.conversationId, post);
    for (const word of new Set(terms.words)) addTo(this.byWord, word, post);
  }

  all(): readonly SimPost[] {
    return this.timeline.read();
  }

  ofAuthor(userId: string): readonly SimPost[] {
    return this.byAuthor.get(userId)?.read() ?? EMPTY;
  }

  inConversation(conversationId: string): readonly SimPost[] {
    return this.byConversation.get(conversationId)?.read() ?? EMPTY;
  }

  withWord(word: string): readonly SimPost[] {
    return this.byWord.get(word)?.read() ?? EMPTY;
  }

  /**
   * Read again from the text each time, not kept: search reads only the candidates of the smallest list, and
   * keeping every post's tokens and sets held a quarter of the demo world's memory (issue 23).
   */
  termsOf(post: SimPost): PostTerms {
    return postTerms(post.text);
  }
}
