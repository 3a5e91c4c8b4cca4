import type { LedgerHeader, LedgerLine, LedgerRules } from '@manaboard/contract/ledger';
import { parseRecordUri } from './at-uri';
import type { Findings } from './findings';
import { collectionOfKind } from './record-kinds';

/**
 * What a single line must say of itself: it belongs to the member above it, names rules the header carries, falls
 * in the week, and (on Bluesky) names records whose address fits their kind and author.
 */
export function checkLineFacts(
  line: Exclude<LedgerLine, { type: 'header' | 'end' }>,
  number: number,
  header: LedgerHeader,
  rules: ReadonlyMap<number, LedgerRules>,
  memberAuthor: string | null,
  findings: Findings,
): void {
  const fault = (message: string) => findings.add('lines', number, message);
  if (
    line.type !== 'member' &&
    line.type !== 'record' &&
    memberAuthor !== null &&
    line.author !== memberAuthor
  ) {
    findings.add(
      'format',
      number,
      `a ${line.type} line of ${line.author} inside the block of ${memberAuthor}`,
    );
  }
  if ('rulesVersion' in line && !rules.has(line.rulesVersion)) {
    fault(`names rules version ${line.rulesVersion}, which the header does not carry`);
  }
  const at =
    line.type === 'post'
      ? line.createdAt
      : line.type === 'referral' || line.type === 'interaction'
        ? line.at
        : null;
  if (at !== null && (at < header.from || at >= header.to)) fault(`${at} is outside the week ${header.week}`);
  if (header.network !== 'bluesky') return;
  if (line.type === 'post') {
    const address = parseRecordUri(line.post);
    if (!address || address.did !== line.author || address.collection !== 'app.bsky.feed.post') {
      fault(`post ${line.post} is not a post of ${line.author}`);
    }
  }
  if (line.type === 'record') {
    addressFits(line.uri, line.author, line.kind, line.cid, fault);
  }
  if (line.type === 'interaction' && line.record !== null) {
    addressFits(line.record, line.author, line.kind, line.cid, fault);
  }
}

function addressFits(
  uri: string,
  author: string,
  kind: keyof typeof collectionOfKind,
  cid: string | null,
  fault: (message: string) => void,
): void {
  const address = parseRecordUri(uri);
  if (!address) return fault(`${uri} is not a record's AT URI`);
  if (address.did !== author) fault(`${uri} is not in the repository of its author ${author}`);
  if (address.collection !== collectionOfKind[kind])
    fault(`${uri}: a ${kind} must be a ${collectionOfKind[kind]}`);
  if (cid === null) fault(`${uri} has no CID (only X's records have none)`);
}
