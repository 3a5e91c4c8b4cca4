import { seedDemoAnnouncementsDetailed } from '../modules/announcements/demo-seed';
import { withDatabase } from './with-database';

/** `npm run db:seed`: writes the demo content; running it again adds nothing. */
await withDatabase(async (database) => {
  const { added, total } = await seedDemoAnnouncementsDetailed(database.db);
  console.log(`Demo announcements: ${added} added (${total - added} already present).`);
});
