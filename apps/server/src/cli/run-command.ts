import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { OperatorActionName } from '../operator/operator-actions';

/** A mistake in how the command was called: usage on stderr, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type ParsedArgs = {
  positionals: string[];
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
};

/**
 * The shape every operator command shares: strict arguments (an unknown flag or a stray argument is a usage
 * error), `--help`/`-h` prints the usage (exit 0), a usage error prints the problem and the usage on stderr
 * (exit 2), and a failure is its message on stderr (exit 1), never a stack trace.
 */
export async function runCommand(spec: {
  usage: string;
  options?: ParseArgsOptionsConfig;
  run: (args: ParsedArgs) => Promise<string>;
}): Promise<void> {
  let args: ParsedArgs;
  try {
    const parsed = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: true,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
    });
    if (parsed.values.help) {
      console.log(spec.usage);
      return;
    }
    args = { positionals: parsed.positionals, values: parsed.values };
  } catch (error) {
    // node's own messages name the flag ("Unknown option '--body'"); its hints suit JS callers, not operators.
    const message = error instanceof Error ? error.message.split('. To ')[0] : String(error);
    return usageFailure(`${message}`, spec.usage);
  }
  try {
    console.log(await spec.run(args));
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error.message, spec.usage);
    fail(error);
  }
}

function usageFailure(message: string, usage: string): void {
  console.error(`${message}\n\n${usage}`);
  process.exitCode = 2;
}

function fail(error: unknown): void {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}

/**
 * Runs an operator action (see operator-request.ts). The database code is imported only now, so a usage error
 * answers without loading it.
 */
export async function operate(action: OperatorActionName, input: unknown): Promise<string> {
  const { runOperatorAction } = await import('./operator-request');
  return runOperatorAction(action, input);
}

/** The one positional a command takes at this place, or a usage error naming what is missing. */
export function required(value: string | undefined, what: string): string {
  if (!value?.trim()) throw new UsageError(`Missing ${what}.`);
  return value;
}

/** Refuses arguments beyond those a command takes. */
export function noMore(positionals: string[], taken: number): void {
  const extra = positionals[taken];
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
}

/** The value of a string flag (parseArgs has checked the type). */
export function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}
