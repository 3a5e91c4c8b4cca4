import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { EmbeddedDatabase } from '../db/database';
import type { Database } from '../db/schema';
import type { OfficialHandleRule } from '../social/social-network';

/**
 * What an action runs with: the database of whoever owns it (and, for the embedded one, the PGlite instance
 * itself, which alone can dump it), the operator's name and the read cap.
 */
export type OperatorContext = {
  db: Kysely<Database>;
  pglite?: EmbeddedDatabase;
  actor: string;
  monthlyReadCap: number | undefined;
  /** The configured network's rule for official handles (a rules change naming one it cannot have is refused). */
  officialHandles?: OfficialHandleRule;
};

/**
 * One operator action: the same code whether the command opened the database itself or the running server (its
 * owner) runs it on the command's behalf. The input is validated here, so the socket trusts nothing it is sent.
 */
export type OperatorAction = {
  /** True when it writes: the owner then recomputes totals and drops its cached pages. */
  writes: boolean;
  /** False for an action that must see the data as it is (a backup): a command then does not migrate first. */
  migrates?: boolean;
  run: (context: OperatorContext, input: unknown) => Promise<string>;
};

/** An action whose input is validated with `schema` before `run` sees it (a bad input is a clear error). */
export function action<S extends z.ZodType>(
  schema: S,
  writes: boolean,
  run: (context: OperatorContext, input: z.output<S>) => Promise<string>,
): OperatorAction {
  return {
    writes,
    run: (context, input) => {
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
        return Promise.reject(new Error(`Invalid input: ${problems.join('; ')}`));
      }
      return run(context, parsed.data);
    },
  };
}
