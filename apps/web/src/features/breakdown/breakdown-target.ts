/** Whose Mana to explain: the author, the figure the page shows, and the period it belongs to. */
export type BreakdownTarget = { authorId: string; authorName: string; figure: number; weekly: boolean };
