import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { canonicalJson, type LedgerEnd, type LedgerLine } from '@manaboard/contract/ledger';

/** What an operator compares between a stored edition and the week as the data now stand. */
export type LedgerSummary = {
  sha256: string;
  /** The hash of the lines' figures: what a correction is for (see figuresOf). */
  figures: string;
  members: Map<string, { handle: string; mana: number; rank: number }>;
  end: LedgerEnd | null;
};

/**
 * The part of a line that is a figure of the board: everything but what the record lines and their echo say
 * (which records, how many points are not traceable), what only describes a member (handle) and what each edition
 * or the open week writes differently (the header's state, closing time and edition). A like deleted after the
 * week closed, or a member renamed, changes the bytes but not the figures, and needs no correction.
 */
function figuresOf(value: LedgerLine): unknown {
  switch (value.type) {
    case 'header':
      return { rules: value.rules.map((r) => [r.version, r.hash]), week: value.week };
    case 'member':
      return {
        author: value.author,
        firstTrackedAt: value.firstTrackedAt,
        mana: value.mana,
        rank: value.rank,
      };
    case 'post': {
      const { notTraceable: _notTraceable, ...figures } = value;
      return figures;
    }
    case 'record':
      return null;
    case 'end':
      return { mana: value.mana, members: value.members, posts: value.posts };
    default:
      return value;
  }
}

/** Reads a ledger's text (as written or as stored) into its summary, a piece at a time. */
export async function summarize(pieces: AsyncIterable<string | Buffer>): Promise<LedgerSummary> {
  const bytes = createHash('sha256');
  const figures = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const members: LedgerSummary['members'] = new Map();
  let end: LedgerEnd | null = null;
  let rest = '';
  const take = (text: string) => {
    const value = JSON.parse(text) as LedgerLine;
    if (value.type === 'member')
      members.set(value.author, { handle: value.handle, mana: value.mana, rank: value.rank });
    if (value.type === 'end') end = value;
    const figure = figuresOf(value);
    if (figure !== null) figures.update(`${canonicalJson(figure)}\n`);
  };
  for await (const piece of pieces) {
    bytes.update(piece);
    const text = rest + (typeof piece === 'string' ? piece : decoder.write(piece));
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) take(l);
  }
  rest += decoder.end();
  if (rest !== '') take(rest);
  return {
    sha256: `sha256:${bytes.digest('hex')}`,
    figures: `sha256:${figures.digest('hex')}`,
    members,
    end,
  };
}
