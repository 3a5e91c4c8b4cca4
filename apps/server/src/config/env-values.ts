import { z } from 'zod';

/** Value shapes shared by several environment variables (each a string in the environment). */

export const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)));

/** A comma-separated list of names (a leading @ dropped, blanks ignored), each matching `pattern`. */
export const nameList = (pattern: RegExp, message: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim().replace(/^@/, ''))
        .filter((item) => item.length > 0),
    )
    .pipe(z.array(z.string().regex(pattern, message)));

export const handleList = nameList(/^[A-Za-z0-9_]{1,15}$/, 'must be X handles (1–15 letters, digits, _)');

/** Handles (any network's: X names, Bluesky domains) or network user ids (X numbers, Bluesky DIDs). */
export const accountList = nameList(/^[A-Za-z0-9_.:-]{1,253}$/, 'must be handles or network user ids');
