import type { Config } from '../config/config';
import { loadTokenKey, TokenCipher } from './token-cipher';

/** Where the generated-key warning goes (the app's pino logger, or stderr before it exists). */
export type WarningLog = { warn: (details: object, message: string) => void };

/**
 * Seals and opens secrets at rest with the configured key, loading it on first use: a server that never stores
 * a token never creates a key file. A generated key is announced once in the log, because it must be backed
 * up with the data and shared by every process.
 */
export class TokenVault {
  private cipher: Promise<TokenCipher> | undefined;

  constructor(
    private readonly source: Pick<Config, 'tokenEncryptionKey' | 'dataDir'> | TokenCipher,
    private readonly log?: WarningLog,
  ) {}

  async seal(plain: string): Promise<string> {
    return (await this.load()).encrypt(plain);
  }

  async open(sealed: string): Promise<string> {
    return (await this.load()).decrypt(sealed);
  }

  private load(): Promise<TokenCipher> {
    this.cipher ??= this.create();
    return this.cipher;
  }

  private async create(): Promise<TokenCipher> {
    if (this.source instanceof TokenCipher) return this.source;
    return openTokenCipher(this.source, this.log);
  }
}

/** The cipher for the configured key, or a key generated once into DATA_DIR (with a warning in the log). */
export async function openTokenCipher(
  config: Pick<Config, 'tokenEncryptionKey' | 'dataDir'>,
  log?: WarningLog,
): Promise<TokenCipher> {
  const loaded = await loadTokenKey(config.tokenEncryptionKey, config.dataDir);
  if (loaded.generated) {
    log?.warn(
      { file: loaded.file },
      'TOKEN_ENCRYPTION_KEY is not set: generated a key for X tokens at rest; back it up with the data, and set TOKEN_ENCRYPTION_KEY when several processes share a database',
    );
  }
  return new TokenCipher(loaded.key);
}
