/**
 * X's search query language, the part the programme uses: keywords, "quoted phrases", #hashtags, @mentions,
 * from:, conversation_id:, is:retweet / is:reply / is:quote, negation with -, implicit AND, OR (AND binds
 * tighter: `a b OR c` is `(a b) OR c`), and grouping with parentheses.
 * (https://docs.x.com/x-api/posts/search/integrate/build-a-query)
 */
export type QueryNode =
  | { kind: 'keyword'; value: string }
  | { kind: 'phrase'; value: string }
  | { kind: 'hashtag'; value: string }
  | { kind: 'mention'; value: string }
  | { kind: 'from'; value: string }
  | { kind: 'conversation'; value: string }
  | { kind: 'is'; value: 'retweet' | 'reply' | 'quote' }
  | { kind: 'not'; node: QueryNode }
  | { kind: 'and'; nodes: QueryNode[] }
  | { kind: 'or'; nodes: QueryNode[] };

/** A query X would refuse; the message is what the 400 answer carries. */
export class QueryError extends Error {
  override name = 'QueryError';
}

/** X caps recent-search queries at 512 characters for self-serve access. */
export const MAX_QUERY_LENGTH = 512;

type Token = { type: 'lparen' | 'rparen' | 'or' | 'term'; text: string; negated: boolean; quoted: boolean };

const invalidOperator = (op: string) =>
  new QueryError(
    `Reference to invalid operator '${op}'. Operator is not available in current product or product packaging (the simulated X knows keywords, "phrases", #hashtags, @mentions, from:, conversation_id:, is:retweet, is:reply, is:quote).`,
  );

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ type: ch === '(' ? 'lparen' : 'rparen', text: ch, negated: false, quoted: false });
      i++;
      continue;
    }
    let negated = false;
    if (ch === '-' && i + 1 < query.length && !/\s/.test(query[i + 1] ?? '')) {
      negated = true;
      i++;
    }
    if (query[i] === '(') {
      // `-(` negates the group that follows: a marker term the parser turns into `not`.
      tokens.push({ type: 'term', text: '', negated: true, quoted: false });
      continue;
    }
    if (query[i] === '"') {
      const end = query.indexOf('"', i + 1);
      if (end < 0) throw new QueryError('There is an unclosed quote in the query');
      tokens.push({ type: 'term', text: query.slice(i + 1, end), negated, quoted: true });
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < query.length && !/[\s()"]/.test(query[j] ?? '')) j++;
    const text = query.slice(i, j);
    tokens.push({ type: !negated && text === 'OR' ? 'or' : 'term', text, negated, quoted: false });
    i = j;
  }
  return tokens;
}

function termNode(token: Token): QueryNode {
  const text = token.text;
  if (token.quoted) {
    if (!/[\p{L}\p{N}]/u.test(text)) throw new QueryError('An empty phrase is not a valid query term');
    return { kind: 'phrase', value: text };
  }
  if (/^#[\p{L}\p{N}_]+$/u.test(text)) return { kind: 'hashtag', value: text.slice(1) };
  if (/^@[A-Za-z0-9_]{1,15}$/.test(text)) return { kind: 'mention', value: text.slice(1) };
  const colon = text.indexOf(':');
  if (colon > 0) {
    const op = text.slice(0, colon);
    const value = text.slice(colon + 1);
    if (op === 'from') {
      if (!/^@?[A-Za-z0-9_]{1,15}$|^\d{1,19}$/.test(value))
        throw new QueryError(`Invalid value for the operator 'from:': '${value}'`);
      return { kind: 'from', value: value.replace(/^@/, '') };
    }
    if (op === 'conversation_id') {
      if (!/^\d{1,19}$/.test(value))
        throw new QueryError(`Invalid value for the operator 'conversation_id:': '${value}'`);
      return { kind: 'conversation', value };
    }
    if (op === 'is') {
      if (value === 'retweet' || value === 'reply' || value === 'quote') return { kind: 'is', value };
      throw invalidOperator(`is:${value}`);
    }
    if (/^[a-z_]+$/.test(op)) throw invalidOperator(op);
  }
  if (!/[\p{L}\p{N}]/u.test(text)) throw new QueryError(`'${text}' is not a valid query term`);
  return { kind: 'keyword', value: text };
}

/** Parses a query; throws QueryError with X's kind of message for anything X would refuse. */
export function parseQuery(query: string): QueryNode {
  if (query.trim().length === 0) throw new QueryError('The `query` query parameter can not be empty');
  if (query.length > MAX_QUERY_LENGTH) {
    throw new QueryError(`The query length of ${query.length} exceeds the maximum of ${MAX_QUERY_LENGTH}`);
  }
  const tokens = tokenize(query);
  let pos = 0;

  const parseOr = (): QueryNode => {
    const nodes = [parseAnd()];
    while (tokens[pos]?.type === 'or') {
      pos++;
      nodes.push(parseAnd());
    }
    return nodes.length === 1 ? (nodes[0] as QueryNode) : { kind: 'or', nodes };
  };
  const parseAnd = (): QueryNode => {
    const nodes: QueryNode[] = [];
    while (pos < tokens.length && tokens[pos]?.type !== 'or' && tokens[pos]?.type !== 'rparen') {
      nodes.push(parseUnary());
    }
    if (nodes.length === 0) throw new QueryError('Ambiguous use of OR, or an empty group');
    return nodes.length === 1 ? (nodes[0] as QueryNode) : { kind: 'and', nodes };
  };
  const parseUnary = (): QueryNode => {
    const token = tokens[pos] as Token;
    if (token.type === 'lparen') return parseGroup();
    pos++;
    if (token.type === 'term' && token.negated && token.text === '' && !token.quoted) {
      return { kind: 'not', node: parseGroup() };
    }
    const node = termNode(token);
    return token.negated ? { kind: 'not', node } : node;
  };
  const parseGroup = (): QueryNode => {
    if (tokens[pos]?.type !== 'lparen') throw new QueryError('Expected a group');
    pos++;
    const inner = parseOr();
    if (tokens[pos]?.type !== 'rparen')
      throw new QueryError('There is an unbalanced parenthesis in the query');
    pos++;
    return inner;
  };

  const ast = parseOr();
  if (pos < tokens.length) throw new QueryError('There is an unbalanced parenthesis in the query');
  if (!hasStandalone(ast)) {
    throw new QueryError(
      'A query needs at least one standalone operator that is not negated (is: operators require conjunction)',
    );
  }
  return ast;
}

/** X's rule: conjunction-required operators (is:) and negated terms cannot make a query on their own. */
export function hasStandalone(node: QueryNode): boolean {
  switch (node.kind) {
    case 'not':
    case 'is':
      return false;
    case 'and':
    case 'or':
      return node.nodes.some(hasStandalone);
    default:
      return true;
  }
}

/** Prints a query back in X's syntax (parse(print(q)) gives q again). */
export function printQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'keyword':
      return node.value;
    case 'phrase':
      return `"${node.value}"`;
    case 'hashtag':
      return `#${node.value}`;
    case 'mention':
      return `@${node.value}`;
    case 'from':
      return `from:${node.value}`;
    case 'conversation':
      return `conversation_id:${node.value}`;
    case 'is':
      return `is:${node.value}`;
    case 'not':
      // `--a` would read as the keyword `-a`: a negated negation keeps its parentheses.
      return `-${isGroup(node.node) || node.node.kind === 'not' ? `(${printQuery(node.node)})` : printQuery(node.node)}`;
    case 'and':
      return node.nodes.map((n) => (isGroup(n) ? `(${printQuery(n)})` : printQuery(n))).join(' ');
    case 'or':
      return node.nodes.map((n) => (n.kind === 'or' ? `(${printQuery(n)})` : printQuery(n))).join(' OR ');
  }
}

const isGroup = (node: QueryNode) => node.kind === 'and' || node.kind === 'or';
