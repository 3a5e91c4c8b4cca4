import type { ProgrammeRules } from '@manaboard/contract';
import type { Namer } from '../../social/stream-interest';
import type { PostEvent } from '../../social/stream-source';
import { matchesProgramme } from '../programme/programme-match';

// The stream's worker thread builds its namer here (composition/bluesky-stream-worker.ts), so this module imports
// at run time only the matcher, never the engine's services, the contract's schemas or the config: a thread
// compiles its own copy of all it imports (issue 33; stream-events.ts re-exports these for the engine).

/**
 * Whether a post names the programme: a keyword or hashtag in its text, a hashtag among its tags, or a mention of an
 * official account. Compiled once per rules version: the stream asks it for every post on the network, so a post
 * that holds none of the terms' text is turned down before the full match (matchesProgramme) runs.
 */
export function programmeNamer(
  rules: ProgrammeRules,
  officialIds: ReadonlySet<string>,
): Namer & { readonly terms: NamerTerms } {
  const hashtags = new Set(rules.hashtags.map((t) => t.replace(/^#/, '').toLowerCase()));
  // Every match in the text holds one of these (a keyword's first word, '#tag', '@handle'), lower-cased.
  const needles = [
    ...rules.keywords.flatMap(
      (k) =>
        k
          .toLowerCase()
          .match(/[\p{L}\p{N}_]+/gu)
          ?.slice(0, 1) ?? [],
    ),
    ...rules.hashtags.map((t) => `#${t.replace(/^#/, '').toLowerCase()}`),
    ...rules.officialHandles.map((h) => `@${h.replace(/^@/, '').toLowerCase()}`),
  ];
  const textNames = (text: string) => {
    const lower = text.toLowerCase();
    return needles.some((n) => lower.includes(n)) && matchesProgramme(rules, text);
  };
  const names = (p: PostEvent) =>
    textNames(p.text) ||
    p.tags.some((t) => hashtags.has(t.replace(/^#/, '').toLowerCase())) ||
    p.mentions.some((id) => officialIds.has(id));
  // Its terms, so the stream's worker thread builds the same namer (namerOf).
  return Object.assign(names, { terms: { rules, officials: [...officialIds] } });
}

/** What programmeNamer is made of, as plain data. */
export type NamerTerms = { rules: ProgrammeRules; officials: string[] };

/** The namer of terms a programmeNamer carried (null: names nothing). */
export function namerOf(terms: unknown): (post: PostEvent) => boolean {
  if (terms === null) return () => false;
  const { rules, officials } = terms as NamerTerms;
  return programmeNamer(rules, new Set(officials));
}
