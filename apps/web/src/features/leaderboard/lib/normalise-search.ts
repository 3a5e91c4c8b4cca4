/** A search as sent: surrounding spaces and a leading @ ignored (SPEC §2, §5). */
export function normaliseSearch(input: string): string {
  return input.trim().replace(/^@+/, '').trim();
}
