import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { pgliteExtensions } from './pglite-extensions';
import { releaseFileBundle } from './pglite-file-bundle';

type Fs = { lookupPath(path: string): { node: { contents?: unknown } }; readdir(path: string): string[] };
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

  it('changes nothing where it finds no PGlite file system', () => {
    expect(releaseFileBundle({})).toEqual({ skipped: 'no Module.FS' });
  });
});
