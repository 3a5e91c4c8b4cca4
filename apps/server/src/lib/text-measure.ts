/**
 * Numbers and lengths of text without ICU where the answer needs none. The first `Intl` object a process makes
 * loads ICU's list of locales and its data: ~5 MB of node's binary resident for good, and ~1 MB of ICU's code
 * (measured on an idle demo's pages, issue 33), for a figure with thousands separators or the length of an ASCII
 * post. `Intl` is made only for what needs it, on first use.
 */
let numberFormat: Intl.NumberFormat | undefined;
let segmenter: Intl.Segmenter | undefined;

/** A number as `Intl.NumberFormat('en-US')` writes it: `12,345`, `-1,000`, `2.5`. */
export function enUsNumber(value: number): string {
  if (Number.isSafeInteger(value)) {
    const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
    return value < 0 ? `-${digits}` : digits;
  }
  return (numberFormat ??= new Intl.NumberFormat('en-US')).format(value);
}

/** Graphemes in a text, as `Intl.Segmenter` counts them (Bluesky's measure of a post's length). */
export function graphemeCount(text: string): number {
  // In ASCII every character is a grapheme, except that CR LF is one.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.length - (text.match(/\r\n/g)?.length ?? 0);
  let count = 0;
  for (const _ of (segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text))
    count++;
  return count;
}
