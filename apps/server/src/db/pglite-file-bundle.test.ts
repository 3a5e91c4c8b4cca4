import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { pgliteExtensions } from './pglite-extensions';
import { releaseFileBundle } from './pglite-file-bundle';

type Fs = {
  lookupPath(path: string): { node: { contents?: unknown } };
  readdir(path: string): string[];
  rename(from: string, to: string): void;
};
const fsOf = (pglite: PGlite) => (pglite as unknown as { Module: { FS: Fs } }).Module.FS;

describe('releaseFileBundle', () => {
  it('leaves no file a view of the bundle, drops what only initdb reads, and PostgreSQL still reads the rest', async () => {
    const pglite = await PGlite.create({ extensions: pgliteExtensions });
    try {
      const fs = fsOf(pglite);
      const timezone = fs.lookupPath('/pglite/share/postgresql/timezone/Europe/Paris').node
        .contents as Uint8Array;
      const bundle = timezone.buffer;
      const size = bundle.byteLength;
      expect(size).toBeGreaterThan(5_000_000);
      const paris = Buffer.from(timezone);

      const released = releaseFileBundle(pglite);
      expect(released).toMatchObject({ dropped: expect.any(Number), copied: expect.any(Number) });
      if (!('copied' in released)) throw new Error('skipped');
      expect(released.dropped).toBeGreaterThan(20);
      expect(released.bytes).toBeLessThan(size / 2);
      expect(() => fs.lookupPath('/pglite/share/postgresql/postgres.bki')).toThrow();
      const copy = fs.lookupPath('/pglite/share/postgresql/timezone/Europe/Paris').node
        .contents as Uint8Array;
      expect(copy.buffer).not.toBe(bundle);
      expect(Buffer.from(copy).equals(paris)).toBe(true);
      // Its bytes are given up: the buffer PGlite's loader keeps is left empty.
      expect((bundle as { detached?: boolean }).detached).toBe(true);

      // Time zones, text search (snowball), plpgsql and the trigram extension, read after the release.
      await pglite.exec(`create extension if not exists pg_trgm`);
      await pglite.exec(`set time zone 'Asia/Kolkata'`);
      const { rows } = await pglite.query<{ at: string; words: string; similar: number }>(
        `select to_char(timestamptz '2026-11-28 10:00Z', 'HH24:MI') as at,
                to_tsvector('english', 'The members were running')::text as words,
                similarity('manaboard', 'manaboards') > 0.5 as similar`,
      );
      expect(rows[0]).toEqual({ at: '15:30', words: "'member':2 'run':4", similar: true });
      await pglite.exec(`do $$ begin perform 1; end $$`);
      // A second release finds nothing to do.
      expect(releaseFileBundle(pglite)).toMatchObject({ skipped: expect.stringContaining('postgres.bki') });
    } finally {
      await pglite.close();
    }
  });

  it('does not walk into the data directory on disk (a mount)', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mb-bundle-'));
    const pglite = await PGlite.create({ dataDir });
    try {
      const fs = fsOf(pglite);
      const listed: string[] = [];
      const readdir = fs.readdir.bind(fs);
      fs.readdir = (dir) => (listed.push(dir), readdir(dir));
      expect(releaseFileBundle(pglite)).toMatchObject({ copied: expect.any(Number) });
      expect(listed).toContain('/pglite/share/postgresql');
      expect(listed.filter((dir) => dir.startsWith('/pglite/data'))).toEqual([]);
      expect((await pglite.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pglite.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('changes nothing when a bundled file is not where it looks', async () => {
    const pglite = await PGlite.create();
    try {
      const fs = fsOf(pglite);
      fs.rename('/pglite/share/postgresql/errcodes.txt', '/tmp/errcodes.txt');
      expect(releaseFileBundle(pglite)).toEqual({
        skipped: expect.stringMatching(/^the files found hold \d+ of the bundle's \d+ bytes$/),
      });
      const bki = fs.lookupPath('/pglite/share/postgresql/postgres.bki').node.contents as Uint8Array;
      expect(bki.byteLength).toBeGreaterThan(0);
      expect(fs.lookupPath('/tmp/errcodes.txt').node.contents).toBeInstanceOf(Uint8Array);
    } finally {
      await pglite.close();
    }
  });

  it('changes nothing where it finds no PGlite file system', () => {
    expect(releaseFileBundle({})).toEqual({ skipped: 'no Module.FS' });
  });
});
