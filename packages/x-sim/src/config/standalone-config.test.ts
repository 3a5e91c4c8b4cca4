import { describe, expect, it } from 'vitest';
import { loadStandaloneConfig, StandaloneConfigError } from './standalone-config';

describe('the standalone simulation’s configuration', () => {
  it('has defaults, and reads each variable', () => {
    expect(loadStandaloneConfig({})).toEqual({
      port: 4100,
      host: '127.0.0.1',
      seed: 42,
      redirectUris: ['http://localhost:3000/auth/twitter/callback'],
    });
    expect(
      loadStandaloneConfig({
        X_SIM_PORT: '4200',
        X_SIM_HOST: '0.0.0.0',
        X_SIM_SEED: '7',
        X_SIM_REDIRECT_URIS: ' http://a.test/cb , https://b.test/cb ',
      }),
    ).toEqual({
      port: 4200,
      host: '0.0.0.0',
      seed: 7,
      redirectUris: ['http://a.test/cb', 'https://b.test/cb'],
    });
  });

  it('names every bad variable instead of starting on NaN', () => {
    const error = (() => {
      try {
        loadStandaloneConfig({ X_SIM_PORT: 'abc', X_SIM_REDIRECT_URIS: 'not a url' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StandaloneConfigError);
    expect((error as Error).message).toContain('X_SIM_PORT');
    expect((error as Error).message).toContain('X_SIM_REDIRECT_URIS');
  });
});
