import { describe, expect, it } from 'vitest';
import { postMadeAt, tidMillis } from './bluesky-tid';

describe('Bluesky TIDs', () => {
  it('reads when a TID was made (checked against @atproto/common-web TID.timestamp)', () => {
    // The atproto spec's example TID, and two written by the PDS's own TID class.
    expect(new Date(tidMillis('3jzfcijpj2z2a') ?? 0).toISOString()).toBe('2023-06-30T15:03:01.887Z');
    expect(new Date(tidMillis('3lbbzj7q6kc2q') ?? 0).toISOString()).toBe('2024-11-19T08:32:07.197Z');
    expect(new Date(tidMillis('3n3bj4nnim22b') ?? 0).toISOString()).toBe('2026-11-27T06:00:00.123Z');
  });

  it('says nothing of a key that is no TID', () => {
    expect(tidMillis('self')).toBeUndefined();
    expect(tidMillis('x')).toBeUndefined();
    expect(tidMillis('3jzfcijpj2z2')).toBeUndefined(); // 12 chars
    expect(tidMillis('zjzfcijpj2z2a')).toBeUndefined(); // top bit set
    expect(tidMillis('3jzfcijpj2z2A')).toBeUndefined(); // not base32-sortable
  });

  it("tells a post's time from its id", () => {
    const did = 'did:plc:abcdefghijklmnopqrstuvwx';
    expect(postMadeAt(`at://${did}/app.bsky.feed.post/3lbbzj7q6kc2q`)).toBe(1732005127197);
    expect(postMadeAt(`at://${did}/app.bsky.feed.post/x`)).toBeUndefined();
  });
});
