/**
 * `If-None-Match` against an entity tag, with the weak comparison RFC 9110 §13.1.2 prescribes for it: a list of
 * tags, `W/` prefixes ignored (a compressing proxy may weaken our strong tags), and `*` matching anything.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  const given = (Array.isArray(header) ? header.join(',') : header).split(',');
  return given.some((tag) => tag.trim() === '*' || bare(tag) === wanted);
}
