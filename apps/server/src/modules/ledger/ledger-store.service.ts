import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { LedgerEnd } from '@manaboard/contract/ledger';
import type { Database } from '../../db/schema';
import type { AuditEntry } from '../audit/audit.repository';
import { inSnapshot } from './ledger-snapshot';
import * as store from './ledger-store.repository';
import { ledgerText, type LedgerPlan } from './ledger-writer';

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

/** Bytes per stored piece before compression. */
export const CHUNK_BYTES = 1024 * 1024;

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
 * Builds a closed edition and keeps its exact bytes: a `building` row first, then the text in gzip'd pieces of
 * about 1 MB as it is written, and last, in one statement, the row made `stored` with the SHA-256 and length of
 * the bytes. Until then nothing serves it; a failure drops what was written, and a crash leaves a `building` row
 * that the next close drops (dropStaleBuilds). Memory holds one piece at a time.
 */
export async function storeEdition(
  db: Kysely<Database>,
  kind: 'pglite' | 'postgres',
  plan: LedgerPlan & { closedAt: Date },
  meta: { createdBy: string; reason: string | null; now: Date; audit?: (done: StoredEdition) => AuditEntry },
): Promise<StoredEdition> {
  const key = { week: plan.week.week, edition: plan.edition };
  const started = await store.startEdition(db, {
    ...key,
    network: plan.network,
    closedAt: plan.closedAt,
    createdBy: meta.createdBy,
    reason: meta.reason,
    now: meta.now,
  });
  if (!started) throw new EditionBusyError(`ledger ${key.week} edition ${key.edition} exists already`);
  try {
    const hash = createHash('sha256');
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let byteLength = 0;
    let seq = 0;
    const flush = async () => {
      const raw = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      await store.appendChunk(db, {
        ...key,
        seq: seq++,
        data: await gzip(raw),
        rawLength: raw.length,
        now: meta.now,
      });
    };
    let end: LedgerEnd | undefined;
    for await (const text of inSnapshot(db, kind, (d) => ledgerText(d, plan, (e) => (end = e)))) {
      const bytes = Buffer.from(text, 'utf8');
      hash.update(bytes);
      byteLength += bytes.length;
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
    }
    if (pendingBytes > 0) await flush();
    if (!end) throw new Error('the ledger ended without its end line');
    const sha256 = `sha256:${hash.digest('hex')}`;
    const done = { ...key, sha256, byteLength, end };
    await store.finishEdition(
      db,
      key,
      { sha256, byteLength, members: end.members, mana: end.mana, now: meta.now },
      meta.audit?.(done),
    );
    return done;
  } catch (error) {
    await store.dropBuilding(db, key);
    throw error;
  }
}

/** A stored edition's bytes, a piece at a time, exactly as they were stored. */
export async function* storedBytes(
  db: Kysely<Database>,
  key: { week: string; edition: number },
): AsyncGenerator<Buffer, void, undefined> {
  for (let seq = -1; ;) {
    const chunk = await store.chunkAfter(db, key, seq);
    if (!chunk) return;
    seq = chunk.seq;
    yield await gunzip(chunk.data);
  }
}
