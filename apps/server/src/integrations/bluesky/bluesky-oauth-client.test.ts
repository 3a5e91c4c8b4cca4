import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config';
import { clientKindFor, redirectUriFor } from './bluesky-oauth-client';

describe('which OAuth client a public origin allows', () => {
  it('is confidential on https, loopback on localhost and 127.0.0.1, and refused on other http origins', () => {
    expect(clientKindFor('https://mana.example.org')).toBe('confidential');
    expect(clientKindFor('http://localhost:3000')).toBe('loopback');
    expect(clientKindFor('http://127.0.0.1:8080')).toBe('loopback');
    expect(() => clientKindFor('http://mana.example.org')).toThrow(ConfigError);
    expect(() => clientKindFor('http://mana.example.org')).toThrow(/needs an https PUBLIC_ORIGIN/);
  });

  it('returns a loopback client to 127.0.0.1, never localhost', () => {
    expect(redirectUriFor('http://localhost:3000')).toBe('http://127.0.0.1:3000/auth/bluesky/callback');
    expect(redirectUriFor('http://127.0.0.1:9')).toBe('http://127.0.0.1:9/auth/bluesky/callback');
    expect(redirectUriFor('https://mana.example.org')).toBe('https://mana.example.org/auth/bluesky/callback');
  });
});
