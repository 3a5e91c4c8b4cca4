// The ledger bench's yardstick, in a bare process of its own: the week's records read with one plain query (the
// same columns the ledger writes), through the same driver, on the same database. Prints rows and milliseconds.
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import path from 'node:path';
import type { SeededDb } from './mana-db';

const seeded = JSON.parse(process.env.BENCH_DB ?? '') as SeededDb;
const from = process.env.BENCH_FROM ?? '';
const to = process.env.BENCH_TO ?? '';
const query = `select r.id, r.kind, r.author_id, r.cid, r.created_at, r.subject_id
  from stream_records r join posts p on p.id = r.subject_id
  where r.state = 'counted' and p.created_at >= $1 and p.created_at < $2`;

async function read(): Promise<{ rows: number; ms: number }> {
  if (seeded.kind === 'postgres') {
    const client = new pg.Client({
      connectionString: seeded.url,
      options: `-c search_path=${seeded.schema}`,
    });
    await client.connect();
    const started = performance.now();
    const result = await client.query(query, [from, to]);
    const ms = performance.now() - started;
    await client.end();
    return { rows: result.rowCount ?? result.rows.length, ms };
  }
  const db = await PGlite.create({ dataDir: path.join(seeded.dataDir, 'pglite') });
  const started = performance.now();
  const result = await db.query(query, [from, to]);
  const ms = performance.now() - started;
  await db.close();
  return { rows: result.rows.length, ms };
}

const { rows, ms } = await read();
process.stdout.write(`${JSON.stringify({ rows, ms })}\n`);
