import os from 'node:os';
import { parseArgs } from 'node:util';
import { announcementInputSchema } from '@manaboard/contract';
import {
  createAnnouncement,
  listAll,
  setAnnouncementStatus,
} from '../modules/announcements/announcements.service';
import { withDatabase } from './with-database';

const usage = `Manage What's New announcements (until the operator console exists).

Usage:
  npm run announcements -- list
  npm run announcements -- add --title "Title" --content "Text" [--url https://…] [--publish]
  npm run announcements -- publish <id>
  npm run announcements -- archive <id>
  npm run announcements -- unpublish <id>      (back to draft)

Every change is written to the audit log with the operator's user name.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    title: { type: 'string' },
    content: { type: 'string' },
    url: { type: 'string' },
    publish: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const [command, id] = positionals;
const actor = `cli:${os.userInfo().username}`;

if (values.help || !command) {
  console.log(usage);
  process.exitCode = command || values.help ? 0 : 1;
} else {
  await withDatabase(async ({ db }) => {
    switch (command) {
      case 'list': {
        const rows = await listAll(db);
        if (rows.length === 0) console.log('No announcements yet.');
        for (const a of rows)
          console.log(`${a.id}  ${a.status.padEnd(9)}  ${a.createdAt.slice(0, 10)}  ${a.title}`);
        return;
      }
      case 'add': {
        const parsed = announcementInputSchema.safeParse({
          title: values.title,
          content: values.content,
          url: values.url,
        });
        if (!parsed.success) {
          throw new Error(`Cannot add: ${parsed.error.issues.map((i) => i.message).join('; ')}\n\n${usage}`);
        }
        const created = await createAnnouncement(db, parsed.data, { actor, publish: values.publish });
        console.log(`Added ${created.id} as ${created.status}.`);
        return;
      }
      case 'publish':
      case 'archive':
      case 'unpublish': {
        if (!id)
          throw new Error(`Which announcement? ${command} needs an id (see: npm run announcements -- list).`);
        const status = command === 'publish' ? 'published' : command === 'archive' ? 'archived' : 'draft';
        const updated = await setAnnouncementStatus(db, id, status, { actor });
        console.log(`${updated.id} is now ${updated.status}.`);
        return;
      }
      default:
        throw new Error(`Unknown command "${command}".\n\n${usage}`);
    }
  });
}
