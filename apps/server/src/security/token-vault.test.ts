import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenVault } from './token-vault';

describe('TokenVault', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  it('generates a key on first use only, warns once, and later processes reuse it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-vault-'));
    dirs.push(dataDir);
    const warnings: string[] = [];
    const log = { warn: (_details: object, message: string) => void warnings.push(message) };
    const config = { tokenEncryptionKey: undefined, dataDir };

    const first = new TokenVault(config, log);
    expect(await fs.readdir(dataDir)).toEqual([]);
    const sealed = await first.seal('access-token-123');
    expect(sealed).not.toContain('access-token-123');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('TOKEN_ENCRYPTION_KEY');
    await first.seal('again');
    expect(warnings).toHaveLength(1);

    const second = new TokenVault(config, log);
    expect(await second.open(sealed)).toBe('access-token-123');
    expect(warnings).toHaveLength(1);
  });

  it('uses the configured key without touching the data directory', async () => {
    const dataDir = path.join(os.tmpdir(), 'mb-vault-never-created');
    const vault = new TokenVault({ tokenEncryptionKey: 'a'.repeat(64), dataDir });
    expect(await vault.open(await vault.seal('x'))).toBe('x');
    await expect(fs.access(dataDir)).rejects.toThrow();
  });
});
