import type { Db } from '../../db/schema';
import type * as read from './ledger-read.repository';
import * as records from './ledger-records.repository';

export type Counts = records.RecordCounts;
export const noRecords: Counts = { like: 0, quote: 0, reply: 0, repost: 0 };

/**
 * A piece of a post's record lines, with how many of each kind it holds. The lines become bytes as soon as the
 * database's text arrives: a string kept while the next group is read outlives a scavenge or two and is promoted,
 * to wait for a full collection; the bytes' memory is external, freed with their small handle, and counted by the
 * build's heap budget (ledger-writer.ts) either way.
 */
export type RecordText = { text: Buffer; counts: Counts };

const bytesOf = (text: string) => Buffer.from(text, 'utf8');

/**
 * A post with its counted records: how many of each kind, and their lines, in hand (a small post, read with
 * others in one query) or a page at a time (a large one, read by keyset).
 */
export type PostRecords = { post: read.PostRow; counts: Counts; pieces: () => AsyncIterable<RecordText> };

type Group = { posts: read.PostRow[]; large: boolean };

/** What a post's counts say it holds: the size of its read, before reading it. */
const expected = (p: read.PostRow) =>
  Math.max(0, p.likes) + Math.max(0, p.replies) + Math.max(0, p.reposts) + Math.max(0, p.quotes);

/** Consecutive posts whose counts add up to at most a page share a read; a larger post is read alone. */
function groupsOf(posts: readonly read.PostRow[], pageSize: number): Group[] {
  const groups: Group[] = [];
  let current: Group = { posts: [], large: false };
  let size = 0;
  for (const post of posts) {
    const n = expected(post);
    if (n > pageSize) {
      if (current.posts.length > 0) groups.push(current);
      groups.push({ posts: [post], large: true });
      current = { posts: [], large: false };
      size = 0;
      continue;
    }
    if (current.posts.length > 0 && size + n > pageSize) {
      groups.push(current);
      current = { posts: [], large: false };
      size = 0;
    }
    current.posts.push(post);
    size += n;
  }
  if (current.posts.length > 0) groups.push(current);
  return groups;
}

function paged(db: Db, post: read.PostRow, counts: Counts, pageSize: number): PostRecords {
  return {
    post,
    counts,
    pieces: async function* () {
      let after: { kind: string; id: string } | null = null;
      for (;;) {
        const page = await records.recordPage(db, post.post, after, pageSize);
        if (!page) return;
        yield { text: bytesOf(page.text), counts: page.counts };
        if (page.size < pageSize) return;
        after = page.last;
      }
    },
  };
}

/** Reads a group: small posts in one query (lines and counts together), a large one counted, then paged. */
async function readGroup(db: Db, group: Group, pageSize: number): Promise<PostRecords[]> {
  if (group.large) {
    const post = group.posts[0] as read.PostRow;
    const counts = (await records.recordCounts(db, [post.post])).get(post.post) ?? noRecords;
    return [paged(db, post, counts, pageSize)];
  }
  const ids = group.posts.filter((p) => expected(p) > 0).map((p) => p.post);
  // Records far beyond a post's counts would be a counting fault: such a post is paged like a large one.
  const texts = new Map(
    (await records.recordTexts(db, ids, pageSize * 2)).map((t) => [
      t.post,
      { counts: t.counts, text: t.text === null ? null : bytesOf(t.text) },
    ]),
  );
  return group.posts.map((post) => {
    const found = texts.get(post.post);
    if (!found) return { post, counts: noRecords, pieces: async function* () {} };
    const { counts, text } = found;
    if (text === null) return paged(db, post, counts, pageSize);
    return {
      post,
      counts,
      pieces: async function* () {
        yield { text, counts };
      },
    };
  });
}

/**
 * The records of posts, in the order given: posts grouped so one query reads about a page of records, a large
 * post (its counts say more than a page) read alone by keyset. Groups are read ahead, one per reader (connections
 * on one snapshot, each group on the next in turn), while the current one is written, so the database works while
 * the text is made; at most one group more than there are readers is held.
 */
export async function* postsWithRecords(
  readers: readonly [Db, ...Db[]],
  posts: readonly read.PostRow[],
  pageSize: number,
): AsyncGenerator<PostRecords, void, undefined> {
  const groups = groupsOf(posts, pageSize);
  const ahead: Array<Promise<PostRecords[]>> = [];
  let asked = 0;
  const ask = () => {
    const group = groups[asked] as Group;
    const read = readGroup(readers[asked % readers.length] as Db, group, pageSize);
    // A rejected read ahead must not go unhandled while an earlier group is written.
    read.catch(() => undefined);
    ahead.push(read);
    asked++;
  };
  while (asked < groups.length && ahead.length < readers.length) ask();
  for (let current = ahead.shift(); current; current = ahead.shift()) {
    const posts = await current;
    if (asked < groups.length) ask();
    yield* posts;
  }
}
