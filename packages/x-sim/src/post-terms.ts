// How the simulation reads a post's text, the way X's search does
// (https://docs.x.com/x-api/posts/search/integrate/build-a-query): keywords are matched against the tokenised
// text (split on punctuation, symbols and separators), hashtags and mentions against the post's entities.

const HASHTAG = /(?<![\p{L}\p{N}_&])#([\p{L}\p{N}_]+)/gu;
const MENTION = /(?<![A-Za-z0-9_])@([A-Za-z0-9_]{1,15})(?![A-Za-z0-9_])/g;

/** What search matches a post against: its tokens, and its hashtags and mentions (all lower case). */
export type PostTerms = { words: string[]; hashtags: Set<string>; mentions: Set<string> };

/** Lower-case tokens of a text (so `#ManaBoard` gives `manaboard`, `covid-19` gives `covid`, `19`). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
}

/** The terms of a post's text. */
export function postTerms(text: string): PostTerms {
  return {
    words: words(text),
    hashtags: new Set([...text.matchAll(HASHTAG)].map((m) => (m[1] ?? '').toLowerCase())),
    mentions: new Set([...text.matchAll(MENTION)].map((m) => (m[1] ?? '').toLowerCase())),
  };
}

/** Hashtag and mention entities as X reports them: start/end count Unicode code points, end exclusive. */
export function entities(text: string, userIdOf: (username: string) => string | undefined) {
  const codePoint = (utf16: number) => [...text.slice(0, utf16)].length;
  const span = (m: RegExpMatchArray) => {
    const start = codePoint(m.index ?? 0);
    return { start, end: start + [...m[0]].length };
  };
  const hashtags = [...text.matchAll(HASHTAG)].map((m) => ({ ...span(m), tag: m[1] ?? '' }));
  const mentions = [...text.matchAll(MENTION)].map((m) => {
    const id = userIdOf(m[1] ?? '');
    return { ...span(m), username: m[1] ?? '', ...(id ? { id } : {}) };
  });
  return { ...(hashtags.length ? { hashtags } : {}), ...(mentions.length ? { mentions } : {}) };
}
