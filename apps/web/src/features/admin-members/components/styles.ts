/** Class names the Members screens share (the console's look: see admin-audit and admin-announcements). */
export const button =
  'rounded-full border border-white/20 px-4 py-1.5 text-sm font-semibold text-white hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
export const primaryButton =
  'rounded-full bg-violet-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-violet-600 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
export const input =
  'w-full rounded-lg border border-white/15 bg-black/45 px-3 py-1.5 text-sm text-white placeholder:text-violet-200/60 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft';
export const label = 'block text-xs font-bold uppercase tracking-wide text-violet-100';
export const link =
  'font-semibold text-mana-soft underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
export const panel = 'space-y-3 rounded-xl border border-white/10 bg-dusk/70 p-4';

const number = new Intl.NumberFormat('en-US');
/** Mana with thousands separators, as the public board shows it. */
export const formatMana = (mana: number) => number.format(mana);

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
/** An instant as the console shows it: day and minute, in UTC (the audit log's clock). */
export const formatWhen = (iso: string) => `${when.format(new Date(iso))} UTC`;
