// Seeds a Mana benchmark database on its own (the benches call ensureSeeded themselves):
//   npx tsx bench/seed-mana.ts [pglite|postgres] [authors] [posts]
// PGlite goes to a cached directory (BENCH_CACHE_DIR, default $TMPDIR/manaboard-bench), PostgreSQL to a schema
// of the `bench` database (BENCH_DATABASE_URL); `--drop` removes the PostgreSQL schema again.
import { dropPgSeed, ensureSeeded, label, type BenchDbKind } from './lib/mana-db';

const [kindArg = 'pglite', authorsArg, postsArg, flag] = process.argv.slice(2);
if (kindArg !== 'pglite' && kindArg !== 'postgres') {
  console.error('usage: npx tsx bench/seed-mana.ts [pglite|postgres] [authors] [posts] [--drop]');
  process.exit(2);
}
const kind: BenchDbKind = kindArg;
const size = {
  authors: Number(authorsArg ?? (kind === 'pglite' ? 10_000 : 100_000)),
  posts: Number(postsArg ?? (kind === 'pglite' ? 100_000 : 1_000_000)),
};
if (flag === '--drop' && kind === 'postgres') {
  await dropPgSeed(size);
  console.log(`dropped the ${label(size.authors)}/${label(size.posts)} PostgreSQL seed`);
} else {
  const started = performance.now();
  const seeded = await ensureSeeded(kind, size);
  console.log(
    `seeded ${label(size.authors)} authors / ${label(size.posts)} posts (${kind}) in ${((performance.now() - started) / 1000).toFixed(1)} s:`,
    seeded,
  );
}
