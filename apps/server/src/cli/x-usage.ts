import { noMore, operate, runCommand } from './run-command';

/** `npm run x:usage`: what the programme spent on X this month, per endpoint, against the read cap. */
await runCommand({
  usage: `What the programme spent on X this month, per endpoint, against the monthly read cap.

Usage:
  npm run x:usage`,
  run: async (args) => {
    noMore(args.positionals, 0);
    return operate('x.usage', {});
  },
});
