import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('SOCIAL_NETWORK', () => {
  it('defaults to X (simulated without X credentials, as before)', () => {
    const config = loadConfig({});
    expect(config.socialNetwork).toBe('x');
    expect(config.x.mode).toBe('simulated');
    expect(loadConfig({ SOCIAL_NETWORK: 'x' }).socialNetwork).toBe('x');
  });

  it('refuses bluesky with a clear message until it is built, rather than running on X instead', () => {
    expect(() => loadConfig({ SOCIAL_NETWORK: 'bluesky' })).toThrow(ConfigError);
    expect(() => loadConfig({ SOCIAL_NETWORK: 'bluesky' })).toThrow(/not available yet.*docs\/networks\.md/);
  });

  it('refuses a network it does not know', () => {
    expect(() => loadConfig({ SOCIAL_NETWORK: 'mastodon' })).toThrow(/SOCIAL_NETWORK/);
  });
});
