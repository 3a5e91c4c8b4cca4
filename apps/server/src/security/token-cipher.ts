import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const VERSION = 'v1';
const KEY_FILE = 'token-encryption.key';

/**
 * Encrypts secrets at rest (members' X tokens) with AES-256-GCM: a fresh 96-bit IV per value and the auth tag
 * stored beside it (`v1.<iv>.<tag>.<ciphertext>`, base64url). A changed byte fails decryption instead of
 * yielding garbage.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the token encryption key must be 32 bytes');
    this.key = key;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed token');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** Reads a 32-byte key given as base64, base64url or hex. */
export function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32)
    throw new Error('TOKEN_ENCRYPTION_KEY must decode to 32 bytes (openssl rand -base64 32)');
  return key;
}

/**
 * The configured key, or for the embedded default a key generated once into the data directory (mode 0600).
 * `generated` tells the caller to warn: that key must be backed up with the data and shared by every process.
 */
export async function loadTokenKey(
  configured: string | undefined,
  dataDir: string,
): Promise<{ key: Buffer; generated: boolean; file?: string }> {
  if (configured) return { key: parseKey(configured), generated: false };
  const file = path.join(dataDir, KEY_FILE);
  try {
    return { key: parseKey(await fs.readFile(file, 'utf8')), generated: false, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    await fs.writeFile(file, key.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return { key, generated: true, file };
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return { key: parseKey(await fs.readFile(file, 'utf8')), generated: false, file };
    }
    throw error;
  }
}
