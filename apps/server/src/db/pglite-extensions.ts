import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** pg_trgm backs the leaderboard's substring search (migration 0005), as on PostgreSQL. */
export const pgliteExtensions = { pg_trgm };
