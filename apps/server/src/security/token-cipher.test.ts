import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTokenKey, parseKey, TokenCipher } from './token-cipher';

describe('TokenCipher', () => {
  const cipher = new TokenCipher(randomBytes(32));

  it('round-trips any text and never stores it in the clear', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (plain) => {
        const sealed = cipher.encrypt(plain);
        expect(cipher.decrypt(sealed)).toBe(plain);
        if (plain.length > 3) expect(sealed).not.toContain(plain);
      }),
    );
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('refuses tampered values and other keys', () => {
    const sealed = cipher.encrypt('access-token-123');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
    expect(() => new TokenCipher(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => cipher.decrypt('plain-text')).toThrow('not a sealed token');
  });
});

describe('token keys', () => {
  it('accept base64 and hex, 32 bytes only', () => {
    const key = randomBytes(32);
    expect(parseKey(key.toString('base64'))).toEqual(key);
    expect(parseKey(key.toString('hex'))).toEqual(key);
    expect(() => parseKey(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });

  it('are generated once into the data directory, private, and reused', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-key-'));
    try {
      const first = await loadTokenKey(undefined, dir);
      expect(first.generated).toBe(true);
      const stat = await fs.stat(path.join(dir, 'token-encryption.key'));
      expect(stat.mode & 0o777).toBe(0o600);
      const second = await loadTokenKey(undefined, dir);
      expect(second.generated).toBe(false);
      expect(second.key).toEqual(first.key);
      const configured = randomBytes(32);
      expect((await loadTokenKey(configured.toString('base64'), dir)).key).toEqual(configured);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
