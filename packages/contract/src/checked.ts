import * as z from 'zod/mini';

/**
 * `schema.check(...checks)` as a call bundlers may drop when its result goes unused. A method call at module
 * level counts as a side effect, so schemas built with `.check` would all land in the web bundle, also those
 * only the server uses and those only a lazily loaded screen needs; zod/mini's own functions are marked the
 * same way.
 */
/* @__NO_SIDE_EFFECTS__ */
export function checked<T extends z.ZodMiniType>(schema: T, ...checks: z.core.$ZodCheck<z.output<T>>[]): T {
  return schema.check(...checks);
}

/** A whole number in [min, max] from a query string (coerced), with messages that name the field. */
/* @__NO_SIDE_EFFECTS__ */
export const wholeNumber = (name: string, min: number, max: number) =>
  checked(
    z.coerce.number({ error: `${name} must be a whole number` }),
    z.int({ error: `${name} must be a whole number` }),
    z.gte(min, { error: `${name} must be at least ${min}` }),
    z.lte(max, { error: `${name} must be at most ${max}` }),
  );
