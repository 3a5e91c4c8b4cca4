/** An AT URI of a record: `at://<did>/<collection>/<rkey>`. */
export type RecordAddress = { did: string; collection: string; rkey: string };

const DID = /^did:(plc:[a-z2-7]{24}|web:[a-zA-Z0-9.%-]+(:[a-zA-Z0-9.%-]+)*)$/;
const NSID = /^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+)+$/;
const RKEY = /^[a-zA-Z0-9._:~-]{1,512}$/;

/** Parses a record's AT URI (DID authority only: a ledger names repositories by DID), or null. */
export function parseRecordUri(uri: string): RecordAddress | null {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/?#]+)$/.exec(uri);
  if (!match) return null;
  const [, did = '', collection = '', rkey = ''] = match;
  if (!DID.test(did) || !NSID.test(collection) || !RKEY.test(rkey) || rkey === '.' || rkey === '..')
    return null;
  return { did, collection, rkey };
}

export function isDid(value: string): boolean {
  return DID.test(value);
}
