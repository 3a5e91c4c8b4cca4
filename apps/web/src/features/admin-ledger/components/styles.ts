/** The buttons and fields of the ledger screen, in the console's look. */
export const button =
  'rounded-full border border-white/20 px-4 py-1.5 text-sm font-semibold hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
export const primaryButton =
  'rounded-full bg-violet-700 px-4 py-1.5 text-sm font-bold hover:bg-violet-600 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
export const field =
  'w-full rounded-lg border border-white/15 bg-black/45 px-3 py-1.5 text-sm text-white placeholder:text-violet-200/60 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft';
export const label = 'block text-xs font-bold uppercase tracking-wide text-violet-100';
export const link =
  'font-semibold text-mana-soft underline underline-offset-2 hover:text-white focus-visible:outline-2 focus-visible:outline-gold';

export const moment = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
export const number = new Intl.NumberFormat('en-US');
