import { randomUUID } from 'node:crypto';
import { hashBrowserId } from '../modules/identity/browser-id';
import { bindBrowser, upsertAccount } from '../modules/linking/accounts.repository';
import { saveCursor } from '../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../modules/mana/stream-ingest.service';
import type { BlueskyWorld, Ref } from './bluesky-world';

const HOUR = 3_600_000;

/**
 * The Bluesky reading test's opening scene (integrations/bluesky/bluesky-reading.test.ts): Dan links, the stream
 * starts at the network's head, and posts, likes, reposts, quotes and replies (on tracked posts, an off-topic one
 * and the official account's) are seeded, each tallied as the rules should count it. The later tests of that file
 * act on the posts named in `refs`.
 */
export async function seedStreamScenario(w: BlueskyWorld, refs: Record<string, Ref>): Promise<void> {
  // Dan links before he posts: his later posts earn the linked multiplier.
  const account = await upsertAccount(w.database.db, {
    networkUserId: w.did.dan ?? '',
    handle: 'dan.test',
    avatarUrl: null,
    networkCreatedAt: null,
    followers: 100,
    sealedAccessToken: 'sealed',
    sealedRefreshToken: null,
    tokenExpiresAt: new Date(w.clock.now() + HOUR),
    scopes: 'atproto',
    now: new Date(w.clock.now()),
  });
  await bindBrowser(w.database.db, hashBrowserId(randomUUID()), account.id, new Date(w.clock.now()));
  // The stream starts at the network's current head: everything seeded below arrives through it.
  await saveCursor(w.database.db, STREAM_JOB, { seq: await w.head() }, new Date(w.clock.now()));
  await w.reading.stream.start();

  refs.ann = await w.post('ann', 'I love #ManaBoard');
  w.tally.track(refs.ann.uriStr, 'ann');
  refs.bob = await w.post('bob', 'great stuff, ask @manahq.test', { mention: 'manahq.test' });
  w.tally.track(refs.bob.uriStr, 'bob');
  refs.eve = await w.post('eve', 'a quiet post', { tags: ['EarnMana'] }); // a tag outside the text
  w.tally.track(refs.eve.uriStr, 'eve');
  const offTopic = await w.post('cat', 'nothing to see here');
  refs.catQuote = await w.post('cat', 'so true #ManaBoard', { quote: refs.ann });
  w.tally.track(refs.catQuote.uriStr, 'cat');
  w.tally.add(refs.ann.uriStr, 'quotes');
  for (const who of ['eve', 'dan', 'bob']) {
    await w.like(who, refs.ann);
    w.tally.add(refs.ann.uriStr, 'likes');
  }
  await w.repost('bob', refs.ann);
  w.tally.add(refs.ann.uriStr, 'reposts');
  await w.reply('eve', refs.ann, 'nice');
  w.tally.add(refs.ann.uriStr, 'replies');
  await w.reply('ann', refs.bob, 'a reply is never tracked, even with #ManaBoard');
  w.tally.add(refs.bob.uriStr, 'replies');
  await w.like('ann', refs.catQuote);
  w.tally.add(refs.catQuote.uriStr, 'likes');
  await w.like('cat', refs.bob);
  w.tally.add(refs.bob.uriStr, 'likes');
  await w.like('cat', refs.eve);
  w.tally.add(refs.eve.uriStr, 'likes');
  await w.like('ann', offTopic); // not tracked: counts nowhere
  // The official account: its posts are not tracked (the programme does not reward itself); a linked member's
  // like, repost and reply of one earn interaction Mana once settled; an unlinked member's like earns nothing.
  refs.hq = await w.post('manahq', 'Welcome to #ManaBoard');
  w.tally.untracked.set(refs.hq.uriStr, { likes: 2, replies: 1, reposts: 1, quotes: 0 });
  await w.like('dan', refs.hq);
  await w.repost('dan', refs.hq);
  await w.reply('dan', refs.hq, 'hello!');
  w.tally.interactions.push(
    { member: 'dan', kind: 'like' },
    { member: 'dan', kind: 'repost' },
    { member: 'dan', kind: 'reply' },
  );
  await w.like('eve', refs.hq);
  refs.dan = await w.post('dan', '#EarnMana day one');
  w.tally.track(refs.dan.uriStr, 'dan', true);
  await w.like('ann', refs.dan);
  w.tally.add(refs.dan.uriStr, 'likes');
}
