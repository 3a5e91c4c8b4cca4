// The engine's stream consumer for the benches: a fresh database (PGlite, or a scratch schema on PostgreSQL), the
// programme's rules with the recording's official account, StreamIngest and the stream job over a given source.
// The authors' profiles, which the worker reads from the AppView for new authors, come from the recording's
// accounts (the recording's network is gone).
import pino from 'pino';
import { systemClock } from '../../apps/server/src/lib/clock';
import { openDatabase, type DatabaseHandle } from '../../apps/server/src/db/database';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import type { StreamProgressReport } from '../../apps/server/src/jobs/stream-progress-report';
import { StreamJob } from '../../apps/server/src/jobs/stream.job';
import { saveCursor } from '../../apps/server/src/modules/mana/ingest-state.repository';
import { STREAM_JOB, StreamIngest } from '../../apps/server/src/modules/mana/stream-ingest.service';
import { readRulesFile, saveRules } from '../../apps/server/src/modules/programme/programme.service';
import type { SocialAuthor } from '../../apps/server/src/social/social-network';
import type { StreamSource } from '../../apps/server/src/social/stream-source';
import { createScratchSchema } from '../../apps/server/src/test/postgres-schema';
import type { RecordingMeta } from './firehose-recording';

export type DbKind = 'pglite' | 'postgres';
export const pgUrl = process.env.TEST_DATABASE_URL;
export const benchLog = pino({ level: process.env.BENCH_LOG ?? 'warn' });

async function open(kind: DbKind): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  if (kind === 'pglite')
    return { database: await openDatabase({ kind: 'pglite' }), drop: async () => undefined };
  const schema = await createScratchSchema(pgUrl ?? '', 'bench-stream');
  return {
    database: await openDatabase({ kind: 'postgres', url: pgUrl ?? '', schema: schema.name }),
    drop: schema.drop,
  };
}

const profile = (did: string, handle: string): SocialAuthor => ({
  networkUserId: did,
  handle,
  displayName: handle,
  avatarUrl: null,
  createdAt: null,
  followers: null,
  protected: false,
});

export async function openConsumer(options: {
  meta: RecordingMeta;
  kind: DbKind;
  source: StreamSource;
  /** The stored cursor to start from (none: the source's live end). */
  fromSeq?: number;
  cursorEveryMs?: number;
  onProgress?: (report: StreamProgressReport) => void;
}) {
  const { meta } = options;
  const { database, drop } = await open(options.kind);
  const db = database.db;
  await migrateToLatest(db);
  const official = meta.official.handle.split('.')[0] ?? 'benchhq';
  await saveRules(db, { ...(await readRulesFile()), officialHandles: [official] }, 'bench');
  if (options.fromSeq !== undefined) await saveCursor(db, STREAM_JOB, { seq: options.fromSeq }, new Date());
  const byDid = new Map(meta.accounts.map((a) => [a.did as string, profile(a.did, a.handle)]));
  const ingest = new StreamIngest({
    db,
    network: {
      authorByHandle: async (handle) => (handle === official ? (byDid.get(meta.official.did) ?? null) : null),
    },
    authorsOf: async (ids) => ids.flatMap((id) => byDid.get(id) ?? []),
    log: benchLog,
  });
  const job = new StreamJob({
    db,
    ingest,
    source: options.source,
    log: benchLog,
    clock: systemClock,
    ...(options.cursorEveryMs !== undefined ? { cursorEveryMs: options.cursorEveryMs } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const count = async (table: 'stream_records' | 'posts') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    job,
    count,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}
