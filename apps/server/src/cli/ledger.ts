import { flag, noMore, operate, required, runCommand, UsageError } from './run-command';

const usage = `The weekly ledger (docs/ledger-format.md, ADR 014).

Usage:
  npm run ledger -- list                                 (closed weeks: editions, hashes, publication)
  npm run ledger -- check <week>                         (the newest edition against the data now)
  npm run ledger -- correct <week> --reason "why"        (store the next edition when the figures changed)

<week> is an ISO week, 2026-W48. Weeks close by themselves (the worker's ledger job); a closed edition never
changes. A correction is a new, dated edition beside the others, audited, and published like the first.`;

await runCommand({
  usage,
  options: { reason: { type: 'string' } },
  run: async (args) => {
    const [command, week] = args.positionals;
    switch (command) {
      case 'list':
        noMore(args.positionals, 1);
        return operate('ledger.list', {});
      case 'check':
        noMore(args.positionals, 2);
        return operate('ledger.check', { week: required(week, 'week (check <week>)') });
      case 'correct':
        noMore(args.positionals, 2);
        return operate('ledger.correct', {
          week: required(week, 'week (correct <week> --reason "…")'),
          reason: required(flag(args, 'reason'), '--reason "…" (a correction says why)'),
        });
      case undefined:
        throw new UsageError('Missing command.');
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  },
});
