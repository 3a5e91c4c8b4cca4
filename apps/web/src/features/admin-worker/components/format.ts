const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** A moment as the console writes it (UTC), or a dash when there is none. */
export const at = (iso: string | null) => (iso ? `${when.format(new Date(iso))} UTC` : '—');

/** A duration a person reads: 850 ms, 12.4 s, 3 min 5 s. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A span of seconds as an operator reads it: 45 s, 12 min 5 s, 23 h 59 min. */
export function span(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3_600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3_600)} h ${Math.floor((s % 3_600) / 60)} min`;
}

export const count = (n: number) => n.toLocaleString('en-US');
export const usd = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const button =
  'whitespace-nowrap rounded-full border border-white/20 px-3 py-1 text-xs font-semibold hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
