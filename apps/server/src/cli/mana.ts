import path from 'node:path';
import { flag, noMore, operate, required, runCommand, UsageError } from './run-command';

const usage = `Operate the Mana engine (until the operator console exists).

Usage:
  npm run mana -- disqualify <handle> --reason "why"   (vanishes from the leaderboard, earns nothing)
  npm run mana -- requalify <handle> --reason "why"
  npm run mana -- rules                                (the programme rules in force, as JSON)
  npm run mana -- rules <file.json>                    (store them as the next version and rescore)
  npm run mana -- jobs                                 (the worker's job state)
  npm run mana -- appeals                              (open appeals of disqualified members)
  npm run mana -- answer <appeal id> --answer "text"   (shown on the member's card)

Disqualification takes effect at the worker's next totals run (at once while the server runs on the embedded
database: the server carries the command out); new rules at once (non-final posts, daily-limit selection,
pending interaction lines, totals and ranks; final posts keep their Mana). Both are audited.`;

await runCommand({
  usage,
  options: { reason: { type: 'string' }, answer: { type: 'string' } },
  run: async (args) => {
    const [command, argument] = args.positionals;
    switch (command) {
      case 'disqualify':
      case 'requalify': {
        noMore(args.positionals, 2);
        const handle = required(argument, `handle (${command} <handle> --reason "…")`);
        const reason = required(flag(args, 'reason'), `--reason "…" (${command} needs a reason)`);
        return operate('mana.qualification', {
          handle,
          reason,
          disqualified: command === 'disqualify',
        });
      }
      case 'rules': {
        noMore(args.positionals, 2);
        if (!argument) return operate('mana.rules.show', {});
        // A relative path means the directory `npm run` was typed in; the file is read (and checked) here,
        // so the server running the change never needs to see this machine's paths.
        const { invocationDirectory } = await import('../config/config');
        const file = path.resolve(invocationDirectory(), argument);
        const { readRulesFile } = await import('../modules/programme/programme.service');
        const rules = await readRulesFile(file);
        return operate('mana.rules.change', {
          rules,
          file,
          source: `cli:${path.basename(file)}`,
        });
      }
      case 'appeals':
        noMore(args.positionals, 1);
        return operate('mana.appeals', {});
      case 'answer': {
        noMore(args.positionals, 2);
        const appealId = required(argument, 'appeal id (answer <id> --answer "…")');
        return operate('mana.appeal.answer', {
          appealId,
          answer: required(flag(args, 'answer'), '--answer "…"'),
        });
      }
      case 'jobs':
        noMore(args.positionals, 1);
        return operate('mana.jobs', {});
      case undefined:
        throw new UsageError('Missing command.');
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  },
});
