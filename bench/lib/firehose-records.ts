// Record values for the recorded stream's traffic (app.bsky.* as the Bluesky app writes them), built from a seeded
// random source so two generations with the same parameters write the same mix of records (their order across
// accounts still depends on timing, as the accounts write concurrently).

export type StrongRef = { uri: string; cid: string };

/** The programme's hashtag in apps/server/content/programme.json: a post naming it is tracked. */
export const PROGRAMME_TAG = 'ManaBoard';

/** mulberry32: a small seeded generator (reproducible traffic, not security). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a morning coffee thread about open source, weekend hiking photos with friends and new music; ' +
  'honestly this game is great but the servers were down again tonight so we played chess instead. ' +
  'reading a paper on distributed systems, consensus, and why clocks lie; also my cat knocked over a plant'
).split(/\s+/);

export function words(random: () => number, min: number, max: number): string {
  const n = min + Math.floor(random() * (max - min + 1));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'word');
  return out.join(' ');
}

const now = () => new Date().toISOString();

/** A post; `tagged` names the programme's hashtag (with its tag facet), `mention` mentions an official DID. */
export function postRecord(
  random: () => number,
  options: { tagged?: boolean; mention?: { did: string; handle: string }; reply?: StrongRef } = {},
): Record<string, unknown> {
  let text = words(random, 6, 40);
  const facets: unknown[] = [];
  const encoder = new TextEncoder();
  if (options.tagged) {
    const start = encoder.encode(`${text} `).length;
    text = `${text} #${PROGRAMME_TAG}`;
    facets.push({
      index: { byteStart: start, byteEnd: encoder.encode(text).length },
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag: PROGRAMME_TAG }],
    });
  }
  if (options.mention) {
    const start = encoder.encode(`${text} `).length;
    text = `${text} @${options.mention.handle}`;
    facets.push({
      index: { byteStart: start, byteEnd: encoder.encode(text).length },
      features: [{ $type: 'app.bsky.richtext.facet#mention', did: options.mention.did }],
    });
  }
  return {
    $type: 'app.bsky.feed.post',
    text,
    langs: ['en'],
    createdAt: now(),
    ...(facets.length ? { facets } : {}),
    ...(options.reply ? { reply: { root: options.reply, parent: options.reply } } : {}),
  };
}

export const likeRecord = (subject: StrongRef) => ({
  $type: 'app.bsky.feed.like',
  subject,
  createdAt: now(),
});

export const repostRecord = (subject: StrongRef) => ({
  $type: 'app.bsky.feed.repost',
  subject,
  createdAt: now(),
});

export const followRecord = (subject: string) => ({
  $type: 'app.bsky.graph.follow',
  subject,
  createdAt: now(),
});

export const blockRecord = (subject: string) => ({
  $type: 'app.bsky.graph.block',
  subject,
  createdAt: now(),
});

export const profileRecord = (random: () => number) => ({
  $type: 'app.bsky.actor.profile',
  displayName: words(random, 1, 3),
  description: words(random, 5, 25),
});

/** A DID of someone outside the local network (follows and blocks of accounts on other servers). */
export function foreignDid(random: () => number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let id = '';
  for (let i = 0; i < 24; i++) id += alphabet[Math.floor(random() * 32)];
  return `did:plc:${id}`;
}
