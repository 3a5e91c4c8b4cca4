/** A checked parameter, or X's 400 message and `parameters` for it. */
export type ParamResult<T> =
  { ok: true; value: T } | { ok: false; message: string; parameters: Record<string, string[]> };

const fail = (name: string, value: string, message: string): ParamResult<never> => ({
  ok: false,
  message,
  parameters: { [name]: [value] },
});

/** Refuses parameters the endpoint does not take, with X's message. */
export function onlyKnown(query: Record<string, unknown>, allowed: string[]): ParamResult<true> {
  for (const key of Object.keys(query)) {
    if (!allowed.includes(key)) {
      return fail(
        key,
        String(query[key]),
        `The query parameter [${key}] is not one of [${allowed.join(',')}]`,
      );
    }
  }
  return { ok: true, value: true };
}

/** A query parameter's value (the first, if repeated). */
export function str(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
}

/** A comma list checked against the names X accepts for it. */
export function fieldList(
  query: Record<string, unknown>,
  name: string,
  known: ReadonlySet<string>,
): ParamResult<Set<string>> {
  const raw = str(query, name);
  if (raw === undefined) return { ok: true, value: new Set() };
  const values = raw.split(',');
  const bad = values.find((v) => !known.has(v));
  if (bad !== undefined) {
    return fail(
      name,
      bad,
      `The \`${name}\` query parameter value [${bad}] is not one of [${[...known].join(',')}]`,
    );
  }
  return { ok: true, value: new Set(values) };
}

/** `max_results` within X's bounds for the endpoint. */
export function maxResults(
  query: Record<string, unknown>,
  min: number,
  max: number,
  fallback: number,
): ParamResult<number> {
  const raw = str(query, 'max_results');
  if (raw === undefined) return { ok: true, value: fallback };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    return fail(
      'max_results',
      raw,
      `The \`max_results\` query parameter value [${raw}] is not between ${min} and ${max}`,
    );
  }
  return { ok: true, value: n };
}

/** An id parameter (X's ids are 1 to 19 digits). */
export function numericId(name: string, raw: string | undefined): ParamResult<string | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  if (!/^\d{1,19}$/.test(raw))
    return fail(name, raw, `The \`${name}\` query parameter value [${raw}] does not match ^[0-9]{1,19}$`);
  return { ok: true, value: raw };
}

/** An RFC 3339 time parameter. */
export function time(name: string, raw: string | undefined): ParamResult<number | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(ms)) {
    return fail(name, raw, `Invalid '${name}':'${raw}'. '${name}' must be a valid RFC 3339 date-time`);
  }
  return { ok: true, value: ms };
}

/** Opaque pagination tokens (X's are opaque too): a post id for search, an offset for lists. */
export function encodeToken(value: string | number): string {
  return Buffer.from(JSON.stringify({ v: value })).toString('base64url');
}

/** Reads a pagination token back (400 for anything that is not one of ours, of the kind expected). */
export function decodeToken<K extends 'id' | 'offset'>(
  name: string,
  raw: string | undefined,
  kind: K,
): ParamResult<(K extends 'id' ? string : number) | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  let v: unknown;
  try {
    v = (JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { v?: unknown } | null)?.v;
  } catch {
    v = undefined;
  }
  const valid =
    kind === 'id'
      ? typeof v === 'string' && /^\d{1,19}$/.test(v)
      : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (!valid) return fail(name, raw, `The \`${name}\` query parameter value [${raw}] is not valid`);
  return { ok: true, value: v as K extends 'id' ? string : number };
}
