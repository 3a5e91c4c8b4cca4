import { flag, noMore, operate, required, runCommand, UsageError } from './run-command';

const usage = `Manage What's New announcements (the operator console at /admin does the same).

Usage:
  npm run announcements -- list
  npm run announcements -- add --title "Title" --content "Text" [--url https://…] [--publish]
  npm run announcements -- publish <id>
  npm run announcements -- archive <id>
  npm run announcements -- unpublish <id>      (back to draft)
  npm run announcements -- edit <id> --title "Title" --content "Text" [--url https://…]
  npm run announcements -- delete <id>         (drafts only)

Every change is written to the audit log with the operator's user name. While the server runs on the embedded
database, the command is carried out by the server.`;

const statusOf = { publish: 'published', archive: 'archived', unpublish: 'draft' } as const;

await runCommand({
  usage,
  options: {
    title: { type: 'string' },
    content: { type: 'string' },
    url: { type: 'string' },
    publish: { type: 'boolean' },
  },
  run: async (args) => {
    const [command, id] = args.positionals;
    switch (command) {
      case 'list':
        noMore(args.positionals, 1);
        return operate('announcements.list', {});
      case 'add': {
        noMore(args.positionals, 1);
        const announcement = {
          title: required(flag(args, 'title'), '--title'),
          content: required(flag(args, 'content'), '--content'),
          ...(flag(args, 'url') ? { url: flag(args, 'url') } : {}),
        };
        return operate('announcements.add', {
          announcement,
          publish: args.values.publish === true,
        });
      }
      case 'publish':
      case 'archive':
      case 'unpublish':
        noMore(args.positionals, 2);
        return operate('announcements.status', {
          id: required(id, `announcement id (${command} <id>; see: npm run announcements -- list)`),
          status: statusOf[command],
        });
      case 'edit':
        noMore(args.positionals, 2);
        return operate('announcements.edit', {
          id: required(id, 'announcement id (edit <id>; see: npm run announcements -- list)'),
          announcement: {
            title: required(flag(args, 'title'), '--title'),
            content: required(flag(args, 'content'), '--content'),
            ...(flag(args, 'url') ? { url: flag(args, 'url') } : {}),
          },
        });
      case 'delete':
        noMore(args.positionals, 2);
        return operate('announcements.delete', {
          id: required(id, 'announcement id (delete <id>; see: npm run announcements -- list)'),
        });
      case undefined:
        throw new UsageError('Missing command.');
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  },
});
