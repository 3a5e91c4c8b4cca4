import { postTerms, words, type PostTerms } from './post-terms';
import type { QueryNode } from './query';

/** What a query is matched against. */
export type MatchTarget = {
  terms: PostTerms;
  authorUsername: string;
  authorId: string;
  conversationId: string;
  refType: 'retweeted' | 'quoted' | 'replied_to' | null;
};

/** A post as tests describe it (its text is tokenised on the fly). */
export type Matchable = Omit<MatchTarget, 'terms'> & { text: string };

const refOf = { retweet: 'retweeted', reply: 'replied_to', quote: 'quoted' } as const;

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Compiles a parsed query into a predicate once (tokenised keywords and phrases, lower-cased tags), so a
 * search walking thousands of posts does no per-post parsing.
 */
export function compileQuery(node: QueryNode): (target: MatchTarget) => boolean {
  switch (node.kind) {
    case 'keyword':
    case 'phrase': {
      const needle = words(node.value);
      if (needle.length === 1) {
        const only = needle[0] as string;
        return (t) => t.terms.words.includes(only);
      }
      return (t) => containsSequence(t.terms.words, needle);
    }
    case 'hashtag': {
      const tag = node.value.toLowerCase();
      return (t) => t.terms.hashtags.has(tag);
    }
    case 'mention': {
      const name = node.value.toLowerCase();
      return (t) => t.terms.mentions.has(name);
    }
    case 'from': {
      const name = node.value.toLowerCase();
      return (t) => t.authorUsername.toLowerCase() === name || t.authorId === node.value;
    }
    case 'conversation':
      return (t) => t.conversationId === node.value;
    case 'is': {
      const ref = refOf[node.value];
      return (t) => t.refType === ref;
    }
    case 'not': {
      const inner = compileQuery(node.node);
      return (t) => !inner(t);
    }
    case 'and': {
      const parts = node.nodes.map(compileQuery);
      return (t) => parts.every((p) => p(t));
    }
    case 'or': {
      const parts = node.nodes.map(compileQuery);
      return (t) => parts.some((p) => p(t));
    }
  }
}

/** Whether a post matches a parsed query (convenience for tests and scripts; search uses compileQuery). */
export function matches(node: QueryNode, post: Matchable): boolean {
  const { text, ...rest } = post;
  return compileQuery(node)({ ...rest, terms: postTerms(text) });
}
