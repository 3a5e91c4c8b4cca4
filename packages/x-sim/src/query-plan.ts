import type { PostIndex } from './post-index';
import { words } from './post-terms';
import type { QueryNode } from './query';
import { compareIds } from './snowflake';
import type { SimPost } from './world-types';

type Lookup = { index: PostIndex; userIdOf: (username: string) => string | undefined };

/** Past this share of the timeline, a union of lists costs more than walking the timeline itself. */
const UNION_LIMIT = 0.25;

function smallest(lists: readonly (readonly SimPost[])[]): readonly SimPost[] {
  return lists.reduce((a, b) => (b.length < a.length ? b : a));
}

/** Merges id-ordered lists into one, without duplicates. */
function union(lists: readonly (readonly SimPost[])[]): SimPost[] {
  const out: SimPost[] = [];
  const at = lists.map(() => 0);
  for (;;) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const candidate = (lists[i] as readonly SimPost[])[at[i] as number];
      const current = best >= 0 ? (lists[best] as readonly SimPost[])[at[best] as number] : undefined;
      if (candidate && (!current || compareIds(candidate.id, current.id) < 0)) best = i;
    }
    if (best < 0) return out;
    const next = (lists[best] as readonly SimPost[])[at[best] as number] as SimPost;
    if (out[out.length - 1] !== next) out.push(next);
    at[best] = (at[best] as number) + 1;
  }
}

/**
 * A list (id order) that holds every post the query can match, or undefined when only the whole timeline
 * does. Sound by construction: each leaf's list is a superset of its matches (keywords, phrases, hashtags
 * and mentions all need their tokens in the text), AND takes its smallest child, OR the union of all.
 */
export function candidates(node: QueryNode, lookup: Lookup): readonly SimPost[] | undefined {
  const { index } = lookup;
  switch (node.kind) {
    case 'keyword':
    case 'phrase':
    case 'hashtag':
    case 'mention': {
      const tokens = words(node.value);
      if (tokens.length === 0) return [];
      return smallest(tokens.map((t) => index.withWord(t)));
    }
    case 'from': {
      const byName = lookup.userIdOf(node.value);
      const lists = [byName ? index.ofAuthor(byName) : [], index.ofAuthor(node.value)];
      return byName === node.value ? lists[0] : union(lists);
    }
    case 'conversation':
      return index.inConversation(node.value);
    case 'is':
    case 'not':
      return undefined;
    case 'and': {
      const lists = node.nodes.map((n) => candidates(n, lookup)).filter((l) => l !== undefined);
      return lists.length > 0 ? smallest(lists) : undefined;
    }
    case 'or': {
      const lists = node.nodes.map((n) => candidates(n, lookup));
      if (lists.some((l) => l === undefined)) return undefined;
      const defined = lists as (readonly SimPost[])[];
      const total = defined.reduce((sum, l) => sum + l.length, 0);
      if (total > index.all().length * UNION_LIMIT) return undefined;
      return union(defined);
    }
  }
}
