import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The rule behind "nothing outside the adapters names a network" (STYLE: a network has one home), as code so a
 * test can hold every file to it. A source file NAMES a network when its syntax tree (comments are not read:
 * they may explain a network's facts) holds:
 * - an identifier spelt after one: `XClient`, `createXClient`, `xUserId`, `X_WIDGETS_SRC`, `x_user_id`, `realX`,
 *   `twttr`, `tweetId`, `bskyAgent`, `BlueskyLinking`… (SPEC's API field `retweets` is the API's own word: kept);
 * - text shown in JSX naming one (`X` as a word, `Twitter`, `Bluesky`, `bsky`);
 * - a string, template or regular expression naming one: `twitter`, `x.com`, `bsky`, `bluesky`, the network name
 *   `'x'` on its own, or an import of an adapter (`integrations/x`, `integrations/bluesky`, `networks/x`,
 *   `networks/bluesky`) or of the simulated X (`@manaboard/x-sim`).
 * Tests are not held to it: they drive the simulated X, the one allowed stand-in, and test the adapters' effects.
 */
/** `x`/`X` as a word of its own in camelCase or snake_case: xUserId, x_user_id, createXClient, X_WIDGETS, realX. */
const X_WORD = /^x[A-Z_]|(^|[a-z0-9])X([A-Z][a-z]|_)|[a-z0-9]X$/;
const NAME = /^tweet|twitter|twttr|bsky|bluesky/i;
const STRING =
  /twitter|twttr|x\\?\.com|bsky|bluesky|integrations\/(x|bluesky)\b|networks\/(x|bluesky)\b|@manaboard\/x-sim/i;

/** X as a word in shown text (a lone "X" is a close button, not the network). */
const SHOWN_X = /\bX\b/;
const SHOWN_NAME = /twitter|bluesky|bsky/i;

export type Naming = { file: string; line: number; text: string };

/** Whether one identifier or string names a network (see above). */
export function namesNetwork(kind: 'identifier' | 'string' | 'shown', text: string): boolean {
  if (kind === 'identifier') return X_WORD.test(text) || NAME.test(text);
  if (kind === 'shown') return SHOWN_NAME.test(text) || (SHOWN_X.test(text) && text.trim() !== 'X');
  return text === 'x' || STRING.test(text);
}

/** Every place a source text names a network, found by walking its syntax tree. */
export function namingsIn(file: string, source: string): Naming[] {
  const tree = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Naming[] = [];
  const visit = (node: ts.Node): void => {
    const kind =
      ts.isIdentifier(node) || ts.isPrivateIdentifier(node)
        ? 'identifier'
        : ts.isJsxText(node)
          ? 'shown'
          : ts.isStringLiteralLike(node) ||
              ts.isTemplateLiteralToken(node) ||
              ts.isRegularExpressionLiteral(node)
            ? 'string'
            : null;
    const text = kind ? (node as ts.Identifier | ts.LiteralLikeNode).text : '';
    if (kind && namesNetwork(kind, text)) {
      const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
      found.push({ file, line, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** The source files (tests aside) under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test(-support)?\.tsx?$/.test(name))
    .map((name) => path.join(dir, name));
}
