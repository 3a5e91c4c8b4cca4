import type { FastifySchemaCompiler } from 'fastify';
import type { ZodType } from 'zod';

/** Distinct query strings remembered per route; the memo starts over when full (clients choose them). */
const REMEMBERED_QUERIES = 500;

type Validate = ReturnType<FastifySchemaCompiler<ZodType>>;
type Result = ReturnType<Validate>;

/**
 * A key that names a parsed query exactly (length-prefixed, so no key or value can pass for another), or
 * undefined for anything but the strings and string lists Fastify's query parser makes.
 */
function queryKey(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  let key = '';
  for (const [name, value] of Object.entries(data)) {
    key += `${name.length}:${name}`;
    if (typeof value === 'string') key += `s${value.length}:${value}`;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      key += `a${value.length}:${value.map((item) => `${item.length}:${item}`).join('')}`;
    else return undefined;
  }
  return key;
}

/**
 * The zod validator compiler, remembering each route's successful querystring validations by query (issue 33): a
 * read is asked the same few queries over and over (`/api/mana?limit=20&weekly=true`), and validating one again
 * with zod was ~6 % of the CPU of a cached leaderboard answer (a perf profile under load). The remembered value
 * is frozen, as every request with that query shares it; failures are validated each time, as are bodies, params
 * and headers.
 */
export function rememberingQueries(compile: FastifySchemaCompiler<ZodType>): FastifySchemaCompiler<ZodType> {
  return (route) => {
    const validate = compile(route);
    if (route.httpPart !== 'querystring') return validate;
    const remembered = new Map<string, Result>();
    return (data) => {
      const key = queryKey(data);
      const known = key === undefined ? undefined : remembered.get(key);
      if (known) return known;
      const result = validate(data);
      // Only the zod compiler's synchronous `{ value }` of a success is kept.
      if (key === undefined || typeof result !== 'object' || result === null || !('value' in result))
        return result;
      if ('error' in result && result.error) return result;
      const value: unknown = result.value;
      if (typeof value === 'object' && value !== null) Object.freeze(value);
      if (remembered.size >= REMEMBERED_QUERIES) remembered.clear();
      remembered.set(key, result);
      return result;
    };
  };
}
