import { noMore, operate, runCommand } from './run-command';

/**
 * `npm run mana:rebuild`: recomputes every author's post lines, totals and ranks from the stored posts. The
 * worker's incremental totals must give the same result; run it after changing the rules.
 */
await runCommand({
  usage: `Recompute every author's post lines, totals and ranks from the stored posts.

Usage:
  npm run mana:rebuild

While the server runs on the embedded database, the server does the rebuild.`,
  run: async (args) => {
    noMore(args.positionals, 0);
    return operate('mana.rebuild', {});
  },
});
