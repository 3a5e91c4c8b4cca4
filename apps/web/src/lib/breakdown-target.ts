/** Whose Mana to explain: the author, the figure the page shows, and the period it belongs to. */
export type BreakdownTarget = { authorId: string; authorName: string; figure: number; weekly: boolean };

/**
 * How a feature that shows Mana figures opens their breakdown. The page owns the one breakdown dialog and hands
 * this to the leaderboard and the card, so neither imports the breakdown feature: `open` shows a target's lines,
 * `preload` warms the dialog's chunk on intent (pointer or focus on a figure).
 */
export type BreakdownOpener = { open: (target: BreakdownTarget) => void; preload: () => void };
