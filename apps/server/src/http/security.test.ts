import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { contentSecurityPolicy } from './security';

const realX = { X_CLIENT_ID: 'id', X_CLIENT_SECRET: 'secret', X_BEARER_TOKEN: 'bearer' };

describe('contentSecurityPolicy', () => {
  it("allows X's embed script and frames only when real X is configured", () => {
    const simulated = contentSecurityPolicy(loadConfig({ LOG_LEVEL: 'silent' }));
    expect(simulated['script-src']).toEqual(["'self'"]);
    expect(simulated['frame-src']?.join(' ')).not.toContain('twitter.com');

    const real = contentSecurityPolicy(loadConfig({ LOG_LEVEL: 'silent', ...realX }));
    expect(real['script-src']).toEqual([
      "'self'",
      'https://platform.twitter.com',
      'https://syndication.twitter.com',
    ]);
    expect(real['frame-src']).toContain('https://platform.twitter.com');
    expect(real['script-src']).not.toContain("'unsafe-inline'");
  });
});
