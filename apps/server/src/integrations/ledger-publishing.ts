import type { Config } from '../config/config';

/**
 * Whether the worker posts each closed week's ledger hash itself (ADR 014): only on Bluesky, with the app account
 * configured. Elsewhere the console shows the text to post by hand. Picked here, where networks may be named.
 */
export function publishesLedger(config: Pick<Config, 'socialNetwork' | 'bluesky'>): boolean {
  return config.socialNetwork === 'bluesky' && config.bluesky.appAccount !== undefined;
}
