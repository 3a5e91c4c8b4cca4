import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { LedgerEnd } from '@manaboard/contract/ledger';
import type { Database } from '../../db/schema';
import type { AuditEntry } from '../audit/audit.repository';
import { inSnapshot } from './ledger-snapshot';
import * as store from './ledger-store.repository';
import { ensureRefereeSalt } from './ledger-read.repository';
import { ledgerText, type LedgerPlan } from './ledger-writer';

/** Compressed bytes per stored piece (about 9 MB of text). */
export const CHUNK_BYTES = 1024 * 1024;
/** Stored once, served many times: a middle level (about 180 MB/s here, to a ninth). */
const GZIP_LEVEL = 4;

export type StoredEdition = {
  week: string;
  edition: number;
  sha256: string;
  byteLength: number;
  end: LedgerEnd;
};

/** Another process builds this edition now. */
export class EditionBusyError extends Error {
  override readonly name = 'EditionBusyError';
}

/**
 * Builds a closed edition and keeps its exact bytes as one gzip stream, stored in pieces of about 1 MB (the
 * pieces put end to end are a whole gzip file, so a client that takes gzip gets them as they are): a `building`
 * row first, then the pieces as the text is written and compressed, and last, in one statement, the row made
 * `stored` with the SHA-256 and length of the uncompressed bytes. Until then nothing serves it; a failure drops
 * what was written, and a crash leaves a `building` row that the next close drops (dropStaleBuilds). Memory holds
 * one piece at a time.
 */
export async function storeEdition(
  db: Kysely<Database>,
  kind: 'pglite' | 'postgres',
  plan: LedgerPlan & { closedAt: Date },
  meta: {
    createdBy: string;
    reason: string | null;
    now: Date;
    /** The time of each write (default: `now` plus the time the build has taken so far). */
    clock?: () => Date;
    audit?: (done: StoredEdition) => AuditEntry;
  },
): Promise<StoredEdition> {
  const key = { week: plan.week.week, edition: plan.edition };
  // Each write is stamped with the time it happens, not the build's start: a build longer than STALE_BUILD_MS
  // that keeps writing is alive, and must not be dropped as stale (a second builder could then start the edition).
  const startedAt = performance.now();
  const clock =
    meta.clock ?? (() => new Date(meta.now.getTime() + Math.round(performance.now() - startedAt)));
  const build = { ...key, token: randomUUID() };
  const started = await store.startEdition(db, {
    ...build,
    network: plan.network,
    closedAt: plan.closedAt,
    createdBy: meta.createdBy,
    reason: meta.reason,
    now: meta.now,
  });
  if (!started) throw new EditionBusyError(`ledger ${key.week} edition ${key.edition} exists already`);
  await ensureRefereeSalt(db);
  try {
    const hash = createHash('sha256');
    const compressor = createGzip({ level: GZIP_LEVEL });
    let byteLength = 0;
    let fed = 0;
    let end: LedgerEnd | undefined;
    // The text goes into the compressor as it is written (waiting while the compressor is full); its output is
    // stored below as it comes, so the database's pace holds both back.
    const feeding = (async () => {
      try {
        for await (const bytes of inSnapshot(db, kind, (readers) =>
          ledgerText(readers, plan, (e) => (end = e)),
        )) {
          hash.update(bytes);
          byteLength += bytes.length;
          fed += bytes.length;
          if (!compressor.write(bytes)) await once(compressor, 'drain');
        }
        compressor.end();
      } catch (error) {
        compressor.destroy(error as Error);
        throw error;
      }
    })();
    feeding.catch(() => undefined);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    let storedRaw = 0;
    let gzipLength = 0;
    const flush = async () => {
      const data = Buffer.concat(pending);
      gzipLength += data.length;
      pending = [];
      pendingBytes = 0;
      // The text fed so far, taken before the write: the feeder goes on while it waits, and what it feeds then
      // belongs to the next piece (taken after, the pieces' lengths would not add up to the whole).
      const rawLength = fed - storedRaw;
      storedRaw = fed;
      await store.appendChunk(db, { ...build, seq: seq++, data, rawLength, now: clock() });
    };
    for await (const piece of compressor as AsyncIterable<Buffer>) {
      pending.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
    }
    await feeding;
    if (pendingBytes > 0) await flush();
    if (!end) throw new Error('the ledger ended without its end line');
    const sha256 = `sha256:${hash.digest('hex')}`;
    const done = { ...key, sha256, byteLength, end };
    await store.finishEdition(
      db,
      build,
      { sha256, byteLength, gzipLength, members: end.members, mana: end.mana, now: meta.now },
      { chunks: seq, rawLength: storedRaw },
      meta.audit?.(done),
    );
    return done;
  } catch (error) {
    await store.dropBuilding(db, build);
    throw error;
  }
}

/** A stored edition as stored: the pieces of one gzip stream, in order (Content-Encoding: gzip as they are). */
export async function* storedGzip(
  db: Kysely<Database>,
  key: { week: string; edition: number },
): AsyncGenerator<Buffer, void, undefined> {
  for (let seq = -1; ;) {
    const chunk = await store.chunkAfter(db, key, seq);
    if (!chunk) return;
    seq = chunk.seq;
    yield Buffer.from(chunk.data);
  }
}

/** A stored edition's exact bytes, uncompressed, a piece at a time (a failed read ends it with the error). */
export function storedBytes(db: Kysely<Database>, key: { week: string; edition: number }): Readable {
  const out = createGunzip();
  pipeline(Readable.from(storedGzip(db, key)), out, () => undefined);
  return out;
}
