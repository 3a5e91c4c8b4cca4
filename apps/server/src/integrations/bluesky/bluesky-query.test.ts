import { describe, expect, it } from 'vitest';
import { describeBlueskyQuery } from './bluesky-query';

describe('the programme query on Bluesky', () => {
  it('is a filter on the event stream, with no length limit', () => {
    const keywords = Array.from({ length: 20 }, (_, i) => `a long keyword phrase ${i}`);
    const preview = describeBlueskyQuery({
      type: 'matching',
      keywords,
      hashtags: ['ManaBoard'],
      mentions: ['ManaboardHQ'],
    });
    expect(preview.maxLength).toBeNull();
    expect(preview.text).toMatch(
      /^stream posts naming a long keyword phrase 0 OR .* OR #ManaBoard OR @ManaboardHQ$/,
    );
    expect(preview.text.length).toBeGreaterThan(512);
    expect(describeBlueskyQuery({ type: 'postsOf', handles: ['ManaboardHQ'] })).toEqual({
      text: 'stream posts by @ManaboardHQ',
      maxLength: null,
    });
  });
});
