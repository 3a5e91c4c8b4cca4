// Vocabulary of the generated world: handles are first_last (e.g. rune_weaver), texts are short posts about
// a card-game community, or off-topic chatter the programme must not track.

/** First halves of generated handles. */
export const FIRST_PARTS = [
  'mana',
  'rune',
  'lumen',
  'astra',
  'nova',
  'ember',
  'sable',
  'quill',
  'onyx',
  'vale',
  'zephyr',
  'orbit',
  'pixel',
  'moss',
  'coral',
  'fable',
  'glyph',
  'haze',
  'iris',
  'jade',
];

/** Second halves of generated handles. */
export const LAST_PARTS = [
  'fox',
  'smith',
  'wizard',
  'runner',
  'weaver',
  'sage',
  'knight',
  'bard',
  'seer',
  'forge',
  'hawk',
  'moth',
  'otter',
  'crane',
  'lynx',
  'wren',
  'drake',
  'pike',
  'finch',
  'elk',
];

/** Texts of posts about the community (tracked once a keyword, hashtag or mention is added). */
export const ON_TOPIC = [
  'just staked my first cards',
  'daily yield is up today',
  'opened a pack and pulled a rare',
  'the swap fees are tiny',
  'farming magic points all week',
  'who else is grinding the leaderboard',
  'new card art looks amazing',
  'thread on my staking strategy',
  'loving this community',
  'gm to everyone building here',
];

/** Texts the programme must not track. */
export const OFF_TOPIC = [
  'coffee first',
  'watching the match tonight',
  'new keyboard arrived',
  'rainy day walk',
  'reading a good book',
];

/** Texts of replies. */
export const REPLIES = ['agreed, great post', 'count me in', 'this is the way', 'big if true', 'gm'];
