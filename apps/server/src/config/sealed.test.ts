import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('the Bluesky app account', () => {
  const env = {
    NODE_ENV: 'test',
    SOCIAL_NETWORK: 'bluesky',
    BLUESKY_APP_HANDLE: 'manaboard-search.bsky.social',
    BLUESKY_APP_PASSWORD: 'abcd-efgh-ijkl-mnop',
  };

  it('keeps its app password sealed: never in JSON, inspection or a string, only through reveal()', () => {
    const account = loadConfig(env).bluesky.appAccount;
    expect(account?.handle).toBe('manaboard-search.bsky.social');
    expect(account?.service).toBe('https://bsky.social');
    expect(account?.password.reveal()).toBe('abcd-efgh-ijkl-mnop');
    const config = loadConfig(env);
    for (const shown of [JSON.stringify(config), inspect(config, { depth: 10 }), `${account?.password}`])
      expect(shown).not.toContain('abcd-efgh');
  });

  it('is set whole or not at all', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).bluesky.appAccount).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'test', BLUESKY_APP_HANDLE: 'a.bsky.social' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', BLUESKY_APP_PASSWORD: 'abcd-efgh-ijkl-mnop' })).toThrow(
      /BLUESKY_APP_HANDLE and BLUESKY_APP_PASSWORD must be set together/,
    );
  });
});
