// Commit signature checks for the consumer's verified mode (BLUESKY_VERIFY_COMMITS=true), on the recorded commits:
// each commit block is decoded, its unsigned form re-encoded (the bytes the repository's key signed) and its
// signature checked against the repository's key. The recorded PDS signs with k256 (secp256k1) keys; accounts on
// other servers may use p256, so the same unsigned commits are also signed with a p256 key and checked.
import { decode, decodeFirst, encode, fromBytes } from '@atcute/cbor';
import type { Bytes } from '@atcute/cbor';
import { fromUint8Array as readCar } from '@atcute/car';
import {
  P256PublicKey,
  parseDidKey,
  Secp256k1PublicKey,
  verifySigWithDidKey,
  type PublicKey,
} from '@atcute/crypto';
import { P256Keypair, verifySignature } from '@atproto/crypto';

export type SignedCommit = {
  did: string;
  didKey: string;
  unsigned: Uint8Array<ArrayBuffer>;
  sig: Uint8Array<ArrayBuffer>;
};

const copy = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** Each recorded commit's unsigned bytes and signature, with its repository's did:key. */
export function signedCommits(frames: Uint8Array[], signingKeys: Record<string, string>): SignedCommit[] {
  const commits: SignedCommit[] = [];
  for (const frame of frames) {
    const [header, rest] = decodeFirst(frame);
    if (header.t !== '#commit') continue;
    const body = decode(rest) as { repo: string; commit: { bytes: Uint8Array }; blocks: Bytes };
    for (const entry of readCar(fromBytes(body.blocks))) {
      if (!sameBytes(entry.cid.bytes, body.commit.bytes)) continue;
      const { sig, ...unsigned } = decode(entry.bytes) as { sig: Bytes } & Record<string, unknown>;
      const didKey = signingKeys[body.repo];
      if (didKey)
        commits.push({ did: body.repo, didKey, unsigned: copy(encode(unsigned)), sig: copy(fromBytes(sig)) });
    }
  }
  return commits;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The same unsigned commits signed with one p256 key (as a repository on a p256 key would have them). */
export async function p256Commits(commits: SignedCommit[]): Promise<SignedCommit[]> {
  const keypair = await P256Keypair.create();
  const didKey = keypair.did();
  return Promise.all(commits.map(async (c) => ({ ...c, didKey, sig: copy(await keypair.sign(c.unsigned)) })));
}

export type Verifier = { name: string; verify: (commit: SignedCommit) => Promise<boolean> };

/** @atproto/crypto's verifySignature (what @atproto/repo's verifyCommitSig calls): the did:key parsed each time. */
export const atprotoVerifier: Verifier = {
  name: '@atproto/crypto verifySignature(did:key)',
  verify: (c) => verifySignature(c.didKey, c.unsigned, c.sig),
};

/** @atcute/crypto from the did:key each time. */
export const atcuteDidKeyVerifier: Verifier = {
  name: '@atcute/crypto verifySigWithDidKey',
  verify: (c) => verifySigWithDidKey(c.didKey, c.sig, c.unsigned),
};

/** @atcute/crypto with each repository's key imported once and kept (the key cache of verified mode). */
export function atcuteCachedVerifier(): Verifier {
  const keys = new Map<string, Promise<PublicKey>>();
  const keyOf = (didKey: string) => {
    let key = keys.get(didKey);
    if (!key) {
      const found = parseDidKey(didKey);
      key =
        found.type === 'p256'
          ? P256PublicKey.importRaw(found.publicKeyBytes)
          : Secp256k1PublicKey.importRaw(found.publicKeyBytes);
      keys.set(didKey, key);
    }
    return key;
  };
  return {
    name: '@atcute/crypto, key imported once per repository',
    verify: async (c) => (await keyOf(c.didKey)).verify(c.sig, c.unsigned),
  };
}
