// Run by scripts/build.mjs, built beside main.js: makes the build's fresh PGlite cluster in the directory named
// by its argument, with every migration applied, and closes it cleanly. A first start copies it into DATA_DIR
// (pglite-init.ts) and finds nothing to migrate (issue 33: the migrations took ~1 s of a first start, and more
// on a busy machine). The build's hash covers the migrations and the lockfile, so a new migration or a new PGlite
// makes a new template.
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { pgliteExtensions } from './pglite-extensions';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: make-pglite-template.js <data directory>');
const pglite = await PGlite.create({ dataDir, extensions: pgliteExtensions });
const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
await migrateToLatest(db);
await db.destroy();
