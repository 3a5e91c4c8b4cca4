/**
 * Runs a small operator command the way tools behave: usage on `--help`, an unknown flag or a wrong number of
 * arguments (exit 2); a failure as one line on stderr (exit 1); never a stack trace. `run` returns the line
 * to print on success.
 */
export async function runOperatorCommand(
  usage: string,
  arity: { minArgs?: number; maxArgs: number },
  run: (args: string[]) => Promise<string>,
  argv: string[] = process.argv.slice(2),
): Promise<void> {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const flag = args.find((arg) => arg.startsWith('-'));
  if (flag !== undefined || args.length < (arity.minArgs ?? 0) || args.length > arity.maxArgs) {
    if (flag !== undefined && flag !== '--help' && flag !== '-h') console.error(`Unknown option ${flag}`);
    console.error(usage);
    process.exitCode = 2;
    return;
  }
  try {
    console.log(await run(args));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
