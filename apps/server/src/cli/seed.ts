import { noMore, operate, runCommand } from './run-command';

/** `npm run db:seed`: writes the demo content; running it again adds nothing. */
await runCommand({
  usage: `Add the demo announcements (those already present are kept as they are).

Usage:
  npm run db:seed`,
  run: async (args) => {
    noMore(args.positionals, 0);
    return operate('db.seed', {});
  },
});
