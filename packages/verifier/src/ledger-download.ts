import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Http } from './http';
import { LineSplitter, type RawLine } from './line-splitter';

/** A line is at most 64 KiB; the header (every rules version in full) at most 1 MiB. */
export const lineCap = (lineNumber: number) => (lineNumber === 1 ? 1_048_576 : 65_536);

export type Download = { sha256: string; bytes: number; problem: string | null };

/**
 * Streams the ledger once: its bytes are hashed and split into lines as they arrive (`onLine`), and written to
 * `file` for the second pass over its records. Nothing but the current line is held. A download that breaks off,
 * stalls past the time-out or passes `maxBytes` ends with a `problem` sentence; what came so far is still checked.
 */
export async function downloadLedger(
  http: Http,
  url: string,
  file: string,
  options: { maxBytes: number; idleMs: number; onLine: (line: RawLine) => void },
): Promise<Download> {
  const { response, abort } = await http.open(url, 'application/x-ndjson, application/json');
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  const splitter = new LineSplitter(lineCap, options.onLine);
  let bytes = 0;
  let problem: string | null = null;
  let idle = setTimeout(() => abort(), options.idleMs);
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      clearTimeout(idle);
      idle = setTimeout(() => abort(), options.idleMs);
      bytes += chunk.byteLength;
      if (bytes > options.maxBytes) {
        problem = `the ledger is over the cap of ${options.maxBytes} bytes: stopped reading it there`;
        abort();
        break;
      }
      hash.update(chunk);
      splitter.push(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch (error) {
    const what = (error as { cause?: Error })?.cause?.message ?? (error as Error).message;
    problem = `the ledger's download broke off after ${bytes} bytes (${/abort/i.test(what) ? `no data for ${Math.round(options.idleMs / 1000)} s` : what})`;
  } finally {
    clearTimeout(idle);
    out.end();
    await once(out, 'close');
  }
  splitter.end();
  return { sha256: `sha256:${hash.digest('hex')}`, bytes, problem };
}

/** The ledger's lines again, from the file the download wrote (the records' pass). */
export async function* ledgerLines(file: string): AsyncGenerator<RawLine> {
  const pending: RawLine[] = [];
  const splitter = new LineSplitter(lineCap, (line) => pending.push(line));
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    splitter.push(chunk as Buffer);
    yield* pending.splice(0);
  }
  splitter.end();
  yield* pending.splice(0);
}
