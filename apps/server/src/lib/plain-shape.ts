/**
 * Shape checks for plain decoded data (a record from the Bluesky stream), without zod: the stream's worker thread
 * checks every record on the network, and a thread compiles its own copy of every module it imports; zod alone is
 * ~2.7 MB of heap in a fresh isolate (issue 33). Only what the stream's records need: objects that keep unknown keys,
 * strings and arrays with a maximum length, optional fields and a refinement.
 *
 * A check returns the first problem it finds or undefined. The problems are worded as zod v4 words them, in the order
 * it would report them (an object's fields in the shape's order; an array's length before its items), so a skipped
 * record is logged as it was when the shapes were zod schemas (integrations/bluesky/bluesky-record-shape.test.ts compares
 * the two).
 */
export type Shape<T> = ((value: unknown) => string | undefined) & { readonly __type?: T };

/** What zod names a value's type in "received …". */
function received(value: unknown): string {
  if (typeof value === 'number')
    return Number.isNaN(value) ? 'NaN' : Number.isFinite(value) ? 'number' : `${value}`;
  if (typeof value !== 'object') return typeof value;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const prototype: unknown = Object.getPrototypeOf(value);
  const constructor = (value as { constructor?: { name?: unknown } }).constructor;
  return prototype !== Object.prototype && 'constructor' in value && constructor
    ? String(constructor.name)
    : 'object';
}

const invalid = (expected: string, value: unknown) =>
  `Invalid input: expected ${expected}, received ${received(value)}`;

/** A string of at most `max` UTF-16 code units. */
export function string(max?: number): Shape<string> {
  return (value) => {
    if (typeof value !== 'string') return invalid('string', value);
    if (max !== undefined && value.length > max)
      return `Too big: expected string to have <=${max} characters`;
    return undefined;
  };
}

/** A string `refine` accepts (it only runs on a string, as zod's refinement after a failed type check does not). */
export function refined(
  base: Shape<string>,
  refine: (value: string) => boolean,
  message: string,
): Shape<string> {
  return (value) => base(value) ?? (refine(value as string) ? undefined : message);
}

export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return (value) => (value === undefined ? undefined : shape(value));
}

/** An array of at most `max` items of `item`. */
export function array<T>(item: Shape<T>, max: number): Shape<T[]> {
  return (value) => {
    if (!Array.isArray(value)) return invalid('array', value);
    // The length first, as zod does: a long array is refused without reading its items.
    if (value.length > max) return `Too big: expected array to have <=${max} items`;
    for (const each of value) {
      const problem = item(each);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

type Fields = Record<string, Shape<unknown>>;
type Of<S> = S extends Shape<infer T> ? T : never;
type Optional<F extends Fields> = { [K in keyof F]: undefined extends Of<F[K]> ? K : never }[keyof F];
export type ObjectOf<F extends Fields> = { [K in Exclude<keyof F, Optional<F>>]: Of<F[K]> } & {
  [K in Optional<F>]?: Of<F[K]>;
} & Record<string, unknown>;

/** An object (not null, not an array) whose `fields` have their shapes; other keys are kept, unread. */
export function looseObject<F extends Fields>(fields: F): Shape<ObjectOf<F>> {
  const entries = Object.entries(fields);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('object', value);
    for (const [key, shape] of entries) {
      const problem = shape((value as Record<string, unknown>)[key]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** Whether `value` has `shape` (then typed as it), else the problem. */
export function check<T>(
  shape: Shape<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; problem: string } {
  const problem = shape(value);
  return problem === undefined ? { ok: true, value: value as T } : { ok: false, problem };
}
