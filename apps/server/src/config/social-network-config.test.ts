import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('SOCIAL_NETWORK', () => {
  it('defaults to X (simulated without X credentials, as before)', () => {
    const config = loadConfig({});
    expect(config.socialNetwork).toBe('x');
    expect(config.x.mode).toBe('simulated');
    expect(loadConfig({ SOCIAL_NETWORK: 'x' }).socialNetwork).toBe('x');
  });

  it("takes bluesky with Bluesky's public services by default", () => {
    const config = loadConfig({ SOCIAL_NETWORK: 'bluesky' });
    expect(config.socialNetwork).toBe('bluesky');
    expect(config.bluesky).toMatchObject({
      appviewUrl: 'https://public.api.bsky.app',
      relayUrl: 'wss://bsky.network',
      plcUrl: 'https://plc.directory',
      allowHttp: false,
      verifyCommits: false,
    });
    expect(
      loadConfig({ SOCIAL_NETWORK: 'bluesky', BLUESKY_VERIFY_COMMITS: 'true' }).bluesky.verifyCommits,
    ).toBe(true);
  });

  it('refuses plain-http AT Protocol services in production', () => {
    expect(() =>
      loadConfig({ SOCIAL_NETWORK: 'bluesky', BLUESKY_ALLOW_HTTP: 'true', NODE_ENV: 'production' }),
    ).toThrow(ConfigError);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky', BLUESKY_ALLOW_HTTP: 'true' }).bluesky.allowHttp).toBe(
      true,
    );
    expect(() => loadConfig({ BLUESKY_RELAY_URL: 'https://relay.example' })).toThrow(/BLUESKY_RELAY_URL/);
  });

  it('refuses a network it does not know', () => {
    expect(() => loadConfig({ SOCIAL_NETWORK: 'mastodon' })).toThrow(/SOCIAL_NETWORK/);
  });
});

describe('PGLITE_THREAD', () => {
  it('puts the embedded database on a thread of its own on Bluesky, in the serving thread on X, unless told', () => {
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky' }).pgliteThread).toBe(true);
    expect(loadConfig({}).pgliteThread).toBe(false);
    expect(loadConfig({ PGLITE_THREAD: 'worker' }).pgliteThread).toBe(true);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky', PGLITE_THREAD: 'inline' }).pgliteThread).toBe(false);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky', PGLITE_THREAD: 'auto' }).pgliteThread).toBe(true);
  });

  it('refuses a value it does not know', () => {
    expect(() => loadConfig({ PGLITE_THREAD: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ PGLITE_THREAD: 'yes' })).toThrow(/PGLITE_THREAD/);
  });
});

describe('V8_MEMORY_SAVER', () => {
  it('is on where the Bluesky stream runs and off on X, unless told', () => {
    expect(loadConfig({}).memorySaver).toBe(false);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky' }).memorySaver).toBe(true);
    expect(loadConfig({ V8_MEMORY_SAVER: 'on' }).memorySaver).toBe(true);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky', V8_MEMORY_SAVER: 'off' }).memorySaver).toBe(false);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky', V8_MEMORY_SAVER: 'auto' }).memorySaver).toBe(true);
  });

  it('refuses a value it does not know', () => {
    expect(() => loadConfig({ V8_MEMORY_SAVER: 'yes' })).toThrow(/V8_MEMORY_SAVER/);
  });
});

describe('HEAP_GROWING_PERCENT', () => {
  it("leaves V8's own growth unless told, on either network", () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(0);
    expect(loadConfig({ SOCIAL_NETWORK: 'bluesky' }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '30' }).heapGrowingPercent).toBe(30);
  });

  it('refuses a value that is not a whole percentage from 0 to 300', () => {
    for (const value of ['-1', '301', '1.5', 'auto'])
      expect(() => loadConfig({ HEAP_GROWING_PERCENT: value })).toThrow(/HEAP_GROWING_PERCENT/);
  });
});
