import type { ProgrammeRules } from '@manaboard/contract';

// Only type imports: the stream's worker thread runs this matcher for every post on the network, and a thread
// compiles its own copy of everything it imports, so the rules' zod schema, the contract and the config (~2.7 MB
// of heap in a fresh isolate) stay out of it (issue 33; programme.service.ts re-exports it for everyone else).

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/**
 * Whether a post's text matches the programme (a keyword or phrase as a run of tokens, a hashtag, or a mention
 * of an official account), case-insensitively. The search already filters; this guards against a network's
 * looser matching so only posts the rules name are tracked.
 */
export function matchesProgramme(rules: ProgrammeRules, text: string): boolean {
  const lower = text.toLowerCase();
  const words = tokens(text);
  const hasRun = (phrase: string) => {
    const run = tokens(phrase);
    if (run.length === 0) return false;
    for (let i = 0; i + run.length <= words.length; i++) {
      if (run.every((word, k) => words[i + k] === word)) return true;
    }
    return false;
  };
  const tagged = (mark: string, name: string) =>
    new RegExp(`(^|[^\\p{L}\\p{N}_])${mark}${escapeRegExp(name.toLowerCase())}(?![\\p{L}\\p{N}_])`, 'u').test(
      lower,
    );
  return (
    rules.keywords.some(hasRun) ||
    rules.hashtags.some((tag) => tagged('#', tag)) ||
    rules.officialHandles.some((handle) => tagged('@', handle))
  );
}
