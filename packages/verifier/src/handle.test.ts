import { describe, expect, it } from 'vitest';
import { Handles } from './handle';
import { Http } from './http';

const http = new Http({ timeoutMs: 2_000, retries: 0 });

describe('resolving a handle on its own', () => {
  it('reads the DNS TXT record _atproto.<handle>', async () => {
    const asked: string[] = [];
    const handles = new Handles(http, null, async (name) => {
      asked.push(name);
      return [['v=spf1 -all'], ['did=did:plc:', 'ewvi7nxzyoun6zhxrhs64oiz']];
    });
    expect(await handles.resolve('ManaHQ.example.com')).toEqual({
      did: 'did:plc:ewvi7nxzyoun6zhxrhs64oiz',
      via: 'DNS TXT _atproto.manahq.example.com',
    });
    expect(asked).toEqual(['_atproto.manahq.example.com']);
  });

  it('refuses two DIDs in DNS, and says why a handle that names none does not resolve', async () => {
    const two = new Handles(http, null, async () => [['did=did:plc:aaa'], ['did=did:plc:bbb']]);
    const none = new Handles(http, null, async () => {
      throw Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    // .invalid never resolves (RFC 2606), so its https://…/.well-known/atproto-did cannot answer either.
    const a = await two.resolve('manahq.invalid');
    const b = await none.resolve('manahq.invalid');
    expect(a).toMatchObject({
      problem: expect.stringMatching(
        /^@manahq\.invalid does not resolve to a DID \(DNS TXT _atproto\.manahq\.invalid names 2 DIDs; /,
      ),
    });
    expect(b).toMatchObject({
      problem: expect.stringMatching(
        /^@manahq\.invalid does not resolve to a DID \(DNS TXT _atproto\.manahq\.invalid: ENOTFOUND; https:\/\/manahq\.invalid\/\.well-known\/atproto-did /,
      ),
    });
    expect(await none.resolve('not a handle')).toEqual({ problem: '@not a handle is not a handle' });
  });
});
