import { describe, expect, it } from 'vitest';
import { toXQuery } from './x-adapter';

describe('X adapter: the port’s structured query in X search syntax', () => {
  it('writes keywords, #hashtags and @mentions as one OR group without reposts', () => {
    expect(
      toXQuery({
        type: 'matching',
        keywords: ['manaboard', 'earn mana', 'say "hi"'],
        hashtags: ['ManaBoard', '#EarnMana'],
        mentions: ['ManaboardHQ', '@ManaboardDev'],
      }),
    ).toBe(
      '(manaboard OR "earn mana" OR "say hi" OR #ManaBoard OR #EarnMana OR @ManaboardHQ OR @ManaboardDev) -is:retweet',
    );
  });

  it('writes the accounts’ own posts without reposts or replies, and the replies to one post', () => {
    expect(toXQuery({ type: 'postsOf', handles: ['ManaboardHQ', '@ManaboardDev'] })).toBe(
      '(from:ManaboardHQ OR from:ManaboardDev) -is:retweet -is:reply',
    );
    expect(toXQuery({ type: 'repliesTo', postId: '1790000000000000001' })).toBe(
      'conversation_id:1790000000000000001 is:reply',
    );
  });
});
