// Kept free of other imports: the database's own thread (pglite-thread-entry.ts) imports it too (issue 33).

/**
 * Files of PGlite's file bundle that a running database never reads: what initdb loads (the catalog's .bki, the SQL
 * of the system views), build files (pgxs), replication (walreceiver, pgoutput), the sample configurations, and the
 * encoding conversions between UTF8 and other encodings (16 libraries): every client of this database speaks UTF8,
 * so a session that set another `client_encoding`, or `convert()` to another encoding, would fail to load one.
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
  lookupPath(path: string, options?: { follow?: boolean; follow_mount?: boolean }): { node: FsNode };
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
 * This reaches into PGlite's Emscripten module; if what it finds is not what it expects (another PGlite: no such
 * file system, or bundled files it cannot find), it changes nothing and says why (the server logs it).
 */
export function releaseFileBundle(pglite: object): BundleRelease {
  const fs = (pglite as WithModule).Module?.FS;
  if (!fs) return { skipped: 'no Module.FS' };
  let probe: FsNode;
  try {
    probe = fs.lookupPath(PROBE).node;
  } catch {
    return { skipped: `no ${PROBE}` };
  }
  if (!(probe.contents instanceof Uint8Array)) return { skipped: `${PROBE} is not held in memory` };
  const bundle = probe.contents.buffer as ArrayBuffer & { transfer?: () => ArrayBuffer };
  if (typeof bundle.transfer !== 'function') return { skipped: 'this Node cannot transfer an ArrayBuffer' };
  // Every view of the bundle, found before anything changes.
  const views: { path: string; node: FsNode; bytes: Uint8Array }[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      // Not into a mount (the data directory, on disk): it holds no bundled file.
      const { node } = fs.lookupPath(path, { follow: false, follow_mount: false });
      if (fs.isDir(node.mode)) {
        if (!node.mounted) walk(path);
        continue;
      }
      const bytes = node.contents;
      if (fs.isFile(node.mode) && bytes instanceof Uint8Array && bytes.buffer === bundle)
        views.push({ path, node, bytes });
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
  // The bundle is its files end to end: if the views found do not cover it, one is elsewhere, and the detach below
  // would empty it.
  const covered = views.reduce((sum, view) => sum + view.bytes.byteLength, 0);
  if (covered !== bundle.byteLength)
    return { skipped: `the files found hold ${covered} of the bundle's ${bundle.byteLength} bytes` };
  const result = { copied: 0, dropped: 0, bytes: 0 };
  for (const { path, node, bytes } of views) {
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
  // PGlite's loader keeps the buffer in a closure its module holds for good, so the buffer is never garbage: its
  // bytes are moved out (transfer: the buffer left behind is detached, empty) into one that nothing holds. Every
  // view of it was copied or removed above, and the loader reads it only as PGlite opens.
  try {
    bundle.transfer();
  } catch (error) {
    // The copies above are whole: only the memory is not given back.
    return {
      skipped: `the bundle could not be detached (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  return result;
}
