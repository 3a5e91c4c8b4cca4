import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { pgliteStartParams } from './memory-config';

describe("the embedded database's memory settings", () => {
  it('start PGlite with 8MB of shared buffers unless PGLITE_SHARED_BUFFERS says otherwise (issue 33)', async () => {
    expect(loadConfig({}).pgliteMemory).toEqual({
      sharedBuffers: '8MB',
      maintenanceWorkMem: '16MB',
      workMem: '4MB',
    });
    const memory = loadConfig({ PGLITE_SHARED_BUFFERS: '12MB' }).pgliteMemory;
    const pglite = await PGlite.create({ startParams: pgliteStartParams(PGlite.defaultStartParams, memory) });
    try {
      const { rows } = await pglite.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]?.shared_buffers).toBe('12MB');
    } finally {
      await pglite.close();
    }
  });
});
