// Kept free of other imports: the database's own thread (pglite-thread-entry.ts) imports it too (issue 33).

/**
 * Files of PGlite's file bundle that a running database never reads: what initdb loads (the catalog's .bki, the SQL
 * of the system views), build files (pgxs), replication (walreceiver, pgoutput), the sample configurations, and the
 * encoding conversions between UTF8 and other client encodings (every client of this database speaks UTF8).
 */
const INSTALL_ONLY = [
  /\/share\/postgresql\/(postgres\.bki|information_schema\.sql|system_(views|functions|constraints)\.sql|snowball_create\.sql|sql_features\.txt|errcodes\.txt|[^/]+\.sample)$/,
  /\/lib\/postgresql\/pgxs\//,
  /\/lib\/postgresql\/(libpqwalreceiver|pgoutput|utf8_and_[^/]+)\.so$/,
  /\/icu\/LICENSE$/,
];

/** A file PGlite's bundle holds: it can tell where the bundle's bytes are. */
const PROBE = '/pglite/share/postgresql/postgres.bki';

/** The parts of Emscripten's file system (PGlite's `Module.FS`) used here. */
type FsNode = { mode: number; contents?: unknown; usedBytes?: number; mounted?: unknown };
type EmscriptenFs = {
  lookupPath(path: string, options?: { follow?: boolean }): { node: FsNode };
  readdir(path: string): string[];
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  unlink(path: string): void;
};
type WithModule = { Module?: { FS?: EmscriptenFs } };

export type BundleRelease = { copied: number; dropped: number; bytes: number } | { skipped: string };

/**
 * Lets go of PGlite's file bundle once the database is open (issue 33). PGlite loads its 6 MB bundle of PostgreSQL's
 * files (`pglite.data`) into memory, and each file of its in-memory file system is a view of that one buffer, so all
 * of it stays resident for as long as one file does. Here the files initdb and builds alone read are removed, every
 * other one gets a copy of its own bytes (~2.5 MB: time zones, text search, plpgsql, ICU's collation data), and
 * the buffer's memory is given up. Call it after `PGlite.create` (initdb, if any, is done).
 *
 * This reaches into PGlite's Emscripten module; if what it finds is not what it expects (another PGlite), it
 * changes nothing and says why.
 */
export function releaseFileBundle(pglite: object): BundleRelease {
  const module = (pglite as WithModule).Module;
  const fs = module?.FS;
  if (!module || !fs) return { skipped: 'no Module.FS' };
  let probe: FsNode;
  try {
    probe = fs.lookupPath(PROBE).node;
  } catch {
    return { skipped: `no ${PROBE}` };
  }
  if (!(probe.contents instanceof Uint8Array)) return { skipped: `${PROBE} is not held in memory` };
  const bundle = probe.contents.buffer;
  const result = { copied: 0, dropped: 0, bytes: 0 };
  const walk = (dir: string) => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      const { node } = fs.lookupPath(path, { follow: false });
      // A mounted directory (the data directory, on disk) holds no bundled file.
      if (fs.isDir(node.mode)) {
        if (!node.mounted) walk(path);
        continue;
      }
      const bytes = node.contents;
      if (!fs.isFile(node.mode) || !(bytes instanceof Uint8Array) || bytes.buffer !== bundle) continue;
      if (INSTALL_ONLY.some((pattern) => pattern.test(path))) {
        fs.unlink(path);
        result.dropped++;
      } else {
        const copy = bytes.slice(0, node.usedBytes ?? bytes.length);
        node.contents = copy;
        result.copied++;
        result.bytes += copy.length;
      }
    }
  };
  // Where the bundle's files are (not /dev, /proc: Emscripten's devices).
  for (const root of ['/pglite', '/home']) {
    try {
      fs.lookupPath(root);
    } catch {
      continue;
    }
    walk(root);
  }
  // PGlite's loader keeps the buffer in a closure its module holds for good, so the buffer is never garbage: its
  // bytes are moved out (transfer: the buffer left behind is detached, empty) into one that nothing holds. Every
  // view of it above was copied or removed, and the loader reads it only as PGlite opens.
  (bundle as ArrayBuffer & { transfer(): ArrayBuffer }).transfer();
  return result;
}
