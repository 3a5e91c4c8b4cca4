// Record values of the distinct-traffic stream (app.bsky.* as the Bluesky app writes them), each from its frame's
// own random source: texts of real length, facets, replies, image and link embeds, follows, blocks, list items,
// profile updates. No generic record names the programme (its hashtags, keyword or official account): only the
// planted ones do (distinct-planted.ts).
import crypto from 'node:crypto';
import { CidLinkWrapper } from '@atcute/cid';
import { PROGRAMME_TAG } from './firehose-records';
import { didOf, hash32, OFFICIAL_HANDLE, OFFICIAL_INDEX, tid } from './distinct-traffic';

const WORDS = (
  'the a an and or but so of to in on at for with from by about over after before just really very still ' +
  'morning coffee thread open source weekend hiking photos friends new music honestly this game great servers ' +
  'down again tonight played chess instead reading paper distributed systems consensus clocks lie also cat ' +
  'knocked plant garden rain sunny city train late work meeting code review deploy bug fixed finally shipped ' +
  'book film watched loved hated dinner cooked pasta bread bakery market walk dog park bike ride river lake ' +
  'mountain snow winter summer spring autumn news election policy science space launch rocket moon stars ' +
  'football match goal team season coach player art painting drawing museum concert band guitar piano song ' +
  'album podcast episode interview story poem write wrote think thought feel felt happy tired busy quiet'
).split(/\s+/);
const TAGS = ['art', 'photography', 'science', 'books', 'music', 'gamedev', 'news', 'cats', 'dogs', 'food'];

/** xorshift32 from a seed: the frame's own random source. */
export function frameRandom(seed: number): () => number {
  let x = seed | 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)] as T;

export function text(random: () => number, min: number, max: number): string {
  const n = min + Math.floor(random() * (max - min + 1));
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(pick(random, WORDS));
  return out.join(' ');
}

/** A CID's bytes (CIDv1, dag-cbor or raw, sha-256) of `bytes`. */
export function cidBytes(bytes: Uint8Array, codec = 0x71): Uint8Array {
  const out = new Uint8Array(36);
  out.set([0x01, codec, 0x12, 0x20]);
  out.set(crypto.createHash('sha256').update(bytes).digest(), 4);
  return out;
}

/** A CID of nothing in particular (another record, a blob) that is still a well-formed CID. */
export function fakeCid(random: () => number, codec = 0x71): CidLinkWrapper {
  const out = new Uint8Array(36);
  out.set([0x01, codec, 0x12, 0x20]);
  for (let k = 4; k < 36; k += 4) {
    const x = Math.floor(random() * 4294967296);
    out[k] = x & 255;
    out[k + 1] = (x >>> 8) & 255;
    out[k + 2] = (x >>> 16) & 255;
    out[k + 3] = x >>> 24;
  }
  return new CidLinkWrapper(out);
}

const DAY_US = 86_400_000_000;
/** How old a liked, reposted or replied-to post is: 10 % < 15 min, 30 % < 6 h, 40 % < 3 days, 20 % older. */
export function subjectAgeMicros(random: () => number): number {
  const r = random();
  if (r < 0.1) return random() * 900_000_000;
  if (r < 0.4) return 900_000_000 + random() * (DAY_US / 4);
  if (r < 0.8) return DAY_US / 4 + random() * 3 * DAY_US;
  return 3 * DAY_US + random() * 360 * DAY_US;
}

export type World = { seed: number; accounts: number };

export const randomDid = (w: World, random: () => number) => didOf(w.seed, Math.floor(random() * w.accounts));

/** A post of someone on the network written `age` µs before `now`. */
export const postUri = (w: World, random: () => number, nowMicros: number) =>
  `at://${randomDid(w, random)}/app.bsky.feed.post/${tid(nowMicros - subjectAgeMicros(random), hash32(w.seed, Math.floor(random() * 1e9), 7) & 1023)}`;

export const strongRef = (uri: string, random: () => number) => ({ cid: fakeCid(random).$link, uri });

const encoder = new TextEncoder();
const utf8Length = (s: string) => encoder.encode(s).length;

/** A generic post: mostly text, some replies, hashtags (never the programme's), mentions, links and images. */
export function genericPost(w: World, random: () => number, createdAt: string, nowMicros: number): object {
  let body = text(random, 8, 45);
  const facets: object[] = [];
  const r = random();
  if (r < 0.05) {
    const tag = pick(random, TAGS);
    const start = utf8Length(`${body} `);
    body = `${body} #${tag}`;
    facets.push({
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag }],
      index: { byteEnd: utf8Length(body), byteStart: start },
    });
  } else if (r < 0.09) {
    const account = Math.floor(random() * w.accounts);
    const start = utf8Length(`${body} `);
    body = `${body} @u${account}.bench.test`;
    facets.push({
      features: [{ $type: 'app.bsky.richtext.facet#mention', did: didOf(w.seed, account) }],
      index: { byteEnd: utf8Length(body), byteStart: start },
    });
  } else if (r < 0.17) {
    const uri = `https://example.com/${text(random, 2, 4).replace(/ /g, '-')}`;
    const start = utf8Length(`${body} `);
    body = `${body} ${uri}`;
    facets.push({
      features: [{ $type: 'app.bsky.richtext.facet#link', uri }],
      index: { byteEnd: utf8Length(body), byteStart: start },
    });
  }
  const post: Record<string, unknown> = { $type: 'app.bsky.feed.post', createdAt, langs: ['en'], text: body };
  if (facets.length) post.facets = facets;
  if (random() < 0.2) {
    const parent = strongRef(postUri(w, random, nowMicros), random);
    post.reply = { parent, root: random() < 0.5 ? parent : strongRef(postUri(w, random, nowMicros), random) };
  }
  const e = random();
  if (e < 0.1) {
    post.embed = {
      $type: 'app.bsky.embed.images',
      images: [
        {
          alt: random() < 0.3 ? text(random, 3, 12) : '',
          aspectRatio: { height: 1000 + Math.floor(random() * 1000), width: 1500 },
          image: {
            $type: 'blob',
            mimeType: 'image/jpeg',
            ref: fakeCid(random, 0x55),
            size: 100_000 + Math.floor(random() * 800_000),
          },
        },
      ],
    };
  } else if (e < 0.13) {
    post.embed = {
      $type: 'app.bsky.embed.external',
      external: { description: text(random, 5, 20), title: text(random, 2, 8), uri: 'https://example.com/a' },
    };
  }
  return post;
}

/** A post naming the programme, as the planted plan says how. */
export function programmePost(
  w: World,
  random: () => number,
  createdAt: string,
  naming: 'tag' | 'mention' | 'keyword' | 'official',
): object {
  let body = text(random, 8, 30);
  const facets: object[] = [];
  if (naming === 'tag') {
    const start = utf8Length(`${body} `);
    body = `${body} #${PROGRAMME_TAG}`;
    facets.push({
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag: PROGRAMME_TAG }],
      index: { byteEnd: utf8Length(body), byteStart: start },
    });
  } else if (naming === 'mention') {
    const start = utf8Length(`${body} `);
    body = `${body} @${OFFICIAL_HANDLE}`;
    facets.push({
      features: [{ $type: 'app.bsky.richtext.facet#mention', did: didOf(w.seed, OFFICIAL_INDEX) }],
      index: { byteEnd: utf8Length(body), byteStart: start },
    });
  } else if (naming === 'keyword') {
    body = `${body} manaboard`;
  }
  return {
    $type: 'app.bsky.feed.post',
    createdAt,
    langs: ['en'],
    text: body,
    ...(facets.length ? { facets } : {}),
  };
}

/** Any other collection's record (follows, blocks, list items, thread gates, profile updates). */
export function otherRecord(
  w: World,
  random: () => number,
  collection: string,
  createdAt: string,
  nowMicros: number,
): object {
  switch (collection) {
    case 'app.bsky.graph.follow':
    case 'app.bsky.graph.block':
      return { $type: collection, createdAt, subject: randomDid(w, random) };
    case 'app.bsky.graph.listitem':
      return {
        $type: collection,
        createdAt,
        list: `at://${randomDid(w, random)}/app.bsky.graph.list/${tid(nowMicros - subjectAgeMicros(random), 1)}`,
        subject: randomDid(w, random),
      };
    case 'app.bsky.feed.threadgate':
      return {
        $type: collection,
        allow: [{ $type: 'app.bsky.feed.threadgate#followingRule' }],
        createdAt,
        post: postUri(w, random, nowMicros),
      };
    default:
      return {
        $type: 'app.bsky.actor.profile',
        avatar: { $type: 'blob', mimeType: 'image/jpeg', ref: fakeCid(random, 0x55), size: 40_000 },
        description: text(random, 5, 25),
        displayName: text(random, 1, 3),
      };
  }
}
