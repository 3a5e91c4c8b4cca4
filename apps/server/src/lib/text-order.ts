/**
 * Orders strings by their UTF-16 code units, as `<` does: the same on every machine, and without loading ICU's
 * collation data, which `localeCompare` does (~3 MB of the binary resident for good, issue 23). For ids, handles
 * and paths, which have no language.
 */
export function ordinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
