import { fromBytes, isBytes } from '@atcute/cbor';
import { fromUint8Array, type CarEntry } from '@atcute/car';

/** A CID's raw bytes (version, codec, multihash), as a commit's ops and blocks carry them. */
export type CidBytes = Uint8Array;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  // The digest's last bytes differ first between two CIDs: compare from the end.
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A commit's blocks (a CAR archive), read with @atcute/car: the archive's header is checked at once; block bodies
 * are sliced out on demand and never decoded here (the caller decodes only the record blocks it needs, never the
 * repository's tree nodes).
 */
export class CarBlocks {
  private readonly reader: Iterable<CarEntry>;
  private entries: CarEntry[] | undefined;

  /** `blocks`: the frame's `blocks` field (CBOR bytes). Throws when it is not a CAR archive. */
  constructor(blocks: unknown) {
    if (!isBytes(blocks) && !(blocks instanceof Uint8Array)) throw new TypeError('blocks are not bytes');
    this.reader = fromUint8Array(blocks instanceof Uint8Array ? blocks : fromBytes(blocks));
  }

  /** The block whose CID is `cid`, or undefined. Throws when the archive is cut short. */
  get(cid: CidBytes): Uint8Array | undefined {
    this.entries ??= [...this.reader];
    for (const entry of this.entries) if (sameBytes(entry.cid.bytes, cid)) return entry.bytes;
    return undefined;
  }
}
