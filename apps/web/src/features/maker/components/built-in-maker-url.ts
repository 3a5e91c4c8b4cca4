export type MakerCardFacts = {
  programmeName: string;
  hashtags: readonly string[];
  handle: string | null;
  rank: number | null;
  mana: number | null;
};

/**
 * The URL of our built-in maker page with the card's facts in the query string: the page runs without this
 * origin's storage (sandboxed), so everything it draws arrives this way.
 */
export function builtInMakerUrl(facts: MakerCardFacts): string {
  const params = new URLSearchParams({ programme: facts.programmeName });
  if (facts.hashtags.length > 0) params.set('tags', facts.hashtags.join(','));
  if (facts.handle) params.set('handle', facts.handle.replace(/^@/, ''));
  if (facts.rank !== null) params.set('rank', String(facts.rank));
  if (facts.mana !== null) params.set('mana', String(Math.round(facts.mana)));
  return `/maker.html?${params.toString()}`;
}
