import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalLine } from '@manaboard/contract/ledger';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { recordLine } from '../mana/stream-records.repository';
import { recordPage, recordTexts } from './ledger-records.repository';

/** Text a JSON encoder must escape or keep: quotes, backslashes, control characters, and beyond ASCII. */
const nasty = [
  'plain',
  'quote " and \\ slash',
  'line\nbreak\ttab\u0001\u001f',
  'é ü 漢字 🎉 \u2028 \u007f',
  '/</script>',
];

type Row = {
  id: string;
  kind: 'like' | 'quote' | 'reply' | 'repost';
  author_id: string;
  created_at: Date;
  cid: string | null;
};

/** The contract's canonical lines of these records of `post`, in the ledger's order (kind, then code units). */
function linesOf(rows: readonly Row[], post: string): string[] {
  return [...rows]
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) =>
      canonicalLine({
        author: r.author_id,
        cid: r.cid,
        createdAt: r.created_at.toISOString(),
        kind: r.kind,
        post,
        type: 'record',
        uri: r.id,
      }),
    );
}

describe.each(testDatabaseKinds())('record lines made by the database (%s)', (kind) => {
  let database: DatabaseHandle;
  const post = 'at://did:plc:subject/app.bsky.feed.post/"odd\\post';
  // A did:web like whose uri is shorter than the did:plc ones yet sorts after them by code units ('p' < 'w'):
  // the ledger orders uris by code units alone, never shorter first (docs/ledger-format.md).
  const webLike = 'at://did:web:x/l/1';
  const records = [
    ...nasty.flatMap((text, i) =>
      (['like', 'quote', 'reply', 'repost'] as const).map((k, j) => ({
        id: `at://did:plc:a${i}/${k}/${text}/${j}`,
        kind: k,
        subject_id: post,
        author_id: `did:plc:${text}`,
        created_at: new Date(Date.UTC(2026, 9, 1, 12, i, j, 123)),
        cid: i === 0 ? null : `bafy${text}`,
        state: 'counted' as const,
      })),
    ),
    {
      id: webLike,
      kind: 'like' as const,
      subject_id: post,
      author_id: 'did:web:x',
      created_at: new Date(Date.UTC(2026, 9, 1, 13)),
      cid: 'bafyweb',
      state: 'counted' as const,
    },
  ];
  const expected = linesOf(records, post);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.db.insertInto('stream_records').values(records).execute();
    // A record that no longer counts is never a line.
    await database.db
      .insertInto('stream_records')
      .values({ ...records[0], id: 'at://void', state: 'void', void_reason: 'deleted' } as never)
      .execute();
  });
  afterAll(() => database.close());

  it('are the contract canonical lines, in kind then code-unit order, with counts per kind', async () => {
    const [found] = await recordTexts(database.db, [post], 100);
    expect(found?.counts).toEqual({ like: 6, quote: 5, reply: 5, repost: 5 });
    expect(found?.text).toBe(expected.join(''));
    // The short did:web uri is the last like, after every longer did:plc one.
    expect(expected[5]).toContain(`"uri":"${webLike}"`);
    // Past the cap, the text is left out: the post is read a page at a time.
    expect((await recordTexts(database.db, [post], 20))[0]?.text).toBeNull();
  });

  it('come a page at a time by keyset, the pages making the same text', async () => {
    let text = '';
    let after: { kind: string; id: string } | null = null;
    const sizes: number[] = [];
    for (;;) {
      const page = await recordPage(database.db, post, after, 6);
      if (!page) break;
      text += page.text;
      sizes.push(page.size);
      after = page.last;
    }
    expect(sizes).toEqual([6, 6, 6, 3]);
    expect(text).toBe(expected.join(''));
  });

  it('a line stored with its record (as the stream stores it) is the same line, stored or made, mixed in one post', async () => {
    const other = `${post}/stored`;
    const copies = records.map((r) => ({ ...r, id: `${r.id}/s`, subject_id: other }));
    // Every other record with its line stored, the rest without: one post's text mixes both.
    await database.db
      .insertInto('stream_records')
      .values(
        copies.map((r, i) => ({
          ...r,
          line:
            i % 2 === 0
              ? recordLine({
                  id: r.id,
                  kind: r.kind,
                  subjectId: other,
                  authorId: r.author_id,
                  createdAt: r.created_at,
                  cid: r.cid,
                })
              : null,
        })),
      )
      .execute();
    const lines = linesOf(copies, other);
    expect((await recordTexts(database.db, [other], 100))[0]?.text).toBe(lines.join(''));
    // And the stored lines are the ones the ledger uses (not made again): a stored line is taken as it is.
    await database.db
      .updateTable('stream_records')
      .set({ line: 'stored as it is\n' })
      .where('subject_id', '=', other)
      .where('id', '=', `${webLike}/s`)
      .execute();
    expect((await recordTexts(database.db, [other], 100))[0]?.text).toContain('stored as it is\n');
  });
});
