import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasStandalone, parseQuery, printQuery, QueryError, type QueryNode } from './query';
import { matches } from './query-match';

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/).filter((w) => w !== 'or');
const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
  word.map((value) => ({ kind: 'keyword', value }) as QueryNode),
  fc
    .array(word, { minLength: 2, maxLength: 3 })
    .map((ws) => ({ kind: 'phrase', value: ws.join(' ') }) as QueryNode),
  word.map((value) => ({ kind: 'hashtag', value }) as QueryNode),
  fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/).map((value) => ({ kind: 'mention', value }) as QueryNode),
  fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/).map((value) => ({ kind: 'from', value }) as QueryNode),
  fc
    .bigInt({ min: 1n, max: 10n ** 18n })
    .map((v) => ({ kind: 'conversation', value: String(v) }) as QueryNode),
  fc.constantFrom<QueryNode>(
    { kind: 'is', value: 'retweet' },
    { kind: 'is', value: 'reply' },
    { kind: 'is', value: 'quote' },
  ),
);
const { tree: anyTree } = fc.letrec<{ tree: QueryNode; node: QueryNode }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, leaf, tie('tree')),
  tree: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc
      .array(tie('node'), { minLength: 2, maxLength: 3 })
      .map((nodes) => ({ kind: 'and', nodes: flatten('and', nodes) }) as QueryNode),
    fc
      .array(tie('node'), { minLength: 2, maxLength: 3 })
      .map((nodes) => ({ kind: 'or', nodes: flatten('or', nodes) }) as QueryNode),
    leaf.map((node) => ({ kind: 'and', nodes: [leaf0, { kind: 'not', node }] }) as QueryNode),
  ),
}));
const leaf0: QueryNode = { kind: 'keyword', value: 'mana' };
/** Queries X accepts: at least one standalone operator that is not negated. */
const tree = anyTree.filter(hasStandalone);

function flatten(kind: 'and' | 'or', nodes: QueryNode[]): QueryNode[] {
  return nodes.flatMap((n) => (n.kind === kind ? n.nodes : [n]));
}

/** A reference evaluator over sets of facts, written independently of `matches`. */
function reference(node: QueryNode, text: string, author: string, authorId = 'author-id'): boolean {
  const lower = text.toLowerCase();
  const tokens = lower.split(/[^a-z0-9_]+/).filter(Boolean);
  switch (node.kind) {
    case 'keyword':
      return tokens.includes(node.value.toLowerCase());
    case 'phrase':
      return ` ${tokens.join(' ')} `.includes(` ${node.value.toLowerCase()} `);
    case 'hashtag':
      return lower.split(/[^a-z0-9_#]+/).includes(`#${node.value.toLowerCase()}`);
    case 'mention':
      return lower.split(/[^a-z0-9_@]+/).includes(`@${node.value.toLowerCase()}`);
    case 'from':
      // X's from: takes a handle or a user id.
      return author.toLowerCase() === node.value.toLowerCase() || authorId === node.value;
    case 'conversation':
    case 'is':
      return false;
    case 'not':
      return !reference(node.node, text, author, authorId);
    case 'and':
      return node.nodes.every((n) => reference(n, text, author, authorId));
    case 'or':
      return node.nodes.some((n) => reference(n, text, author, authorId));
  }
}

describe('search query parser', () => {
  it('parses what it prints (parse ∘ print = id)', () => {
    fc.assert(
      fc.property(tree, (ast) => {
        expect(parseQuery(printQuery(ast))).toEqual(ast);
      }),
      { numRuns: 500 },
    );
  });

  it('matches as an independent reference evaluator does', () => {
    const text = fc
      .array(
        fc.oneof(
          word,
          word.map((w) => `#${w}`),
          fc.stringMatching(/^@[a-z0-9_]{1,15}$/),
        ),
        { maxLength: 8 },
      )
      .map((ws) => ws.join(' '));
    fc.assert(
      fc.property(tree, text, fc.stringMatching(/^[a-z0-9_]{1,15}$/), (ast, body, author) => {
        const post = {
          text: body,
          authorUsername: author,
          authorId: 'author-id',
          conversationId: 'conversation-id',
          refType: null,
        };
        expect(matches(ast, post)).toBe(reference(ast, body, author));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    '',
    '   ',
    '(a',
    'a)',
    '"open',
    'lang:en',
    'is:verified',
    '-a',
    '-(a OR b)',
    'a OR',
    'is:retweet',
    'is:reply OR is:quote',
    '-is:retweet -a',
    'from:way_too_long_handle',
    'conversation_id:abc',
    'x'.repeat(513),
  ])('refuses %j as X does', (query) => {
    expect(() => parseQuery(query)).toThrow(QueryError);
  });

  it('reads the programme query', () => {
    expect(parseQuery('(#ManaBoard OR manaboard OR @ManaHQ) -is:retweet')).toEqual({
      kind: 'and',
      nodes: [
        {
          kind: 'or',
          nodes: [
            { kind: 'hashtag', value: 'ManaBoard' },
            { kind: 'keyword', value: 'manaboard' },
            { kind: 'mention', value: 'ManaHQ' },
          ],
        },
        { kind: 'not', node: { kind: 'is', value: 'retweet' } },
      ],
    });
  });
});

describe('search query semantics', () => {
  const post = (text: string, extra: Partial<Parameters<typeof matches>[1]> = {}) => ({
    text,
    authorUsername: 'ann',
    authorId: '42',
    conversationId: '7',
    refType: null,
    ...extra,
  });

  it('binds AND tighter than OR, as X documents', () => {
    const ast = parseQuery('corona coronavirus OR covid');
    expect(matches(ast, post('covid news'))).toBe(true);
    expect(matches(ast, post('corona only'))).toBe(false);
    expect(matches(ast, post('corona and coronavirus'))).toBe(true);
  });

  it('matches hashtags and mentions as entities, keywords and phrases as tokens', () => {
    expect(matches(parseQuery('#ManaBoard'), post('love #manaboard!'))).toBe(true);
    expect(matches(parseQuery('#ManaBoard'), post('love manaboard'))).toBe(false);
    expect(matches(parseQuery('#Mana'), post('love #ManaBoard'))).toBe(false);
    expect(matches(parseQuery('manaboard'), post('love #ManaBoard'))).toBe(true);
    expect(matches(parseQuery('@ManaHQ'), post('hi @manahq.'))).toBe(true);
    expect(matches(parseQuery('@ManaHQ'), post('mail me@manahq'))).toBe(false);
    expect(matches(parseQuery('"pulled a rare"'), post('I pulled a rare card'))).toBe(true);
    expect(matches(parseQuery('"pulled a rare"'), post('a rare pull, pulled'))).toBe(false);
  });

  it('knows retweets, replies, quotes, authors and conversations', () => {
    const retweet = post('RT @hq: #ManaBoard', { refType: 'retweeted' });
    expect(matches(parseQuery('#ManaBoard -is:retweet'), retweet)).toBe(false);
    expect(matches(parseQuery('#ManaBoard is:retweet'), retweet)).toBe(true);
    expect(matches(parseQuery('from:ANN'), post('x'))).toBe(true);
    expect(matches(parseQuery('from:42'), post('x'))).toBe(true);
    expect(matches(parseQuery('conversation_id:7 is:reply'), post('x', { refType: 'replied_to' }))).toBe(
      true,
    );
    expect(matches(parseQuery('-(a OR b) c'), post('c a'))).toBe(false);
    expect(matches(parseQuery('-(a OR b) c'), post('c d'))).toBe(true);
  });
});
