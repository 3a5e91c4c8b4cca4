import * as z from 'zod/mini';

/**
 * An object of free keys whose values `values` checks (arrays refused): what `z.record(z.string(), values)`
 * means, written as an object with a catchall. zod's modules are in the main page's first load, and a module is in
 * one chunk whole, so the console's use of `z.record` would put its code there (issue 13).
 */
/* @__NO_SIDE_EFFECTS__ */
export const freeKeys = <T extends z.core.SomeType>(values: T) => z.catchall(z.object({}), values);
