import type { ReadPosition } from './stream-waiting-room';
import type { StreamEvent } from './stream-events';

/**
 * A like or repost waiting for its post, as one flat string of bytes (issue 31). On the public network nearly every
 * like names a post the programme never sees, so a full waiting room is ~50,000 of these in the stream's thread: as
 * an object with its own strings (id, author, subject's author, CID text), two boxed times and a read position it
 * was ~650 bytes of heap each with the room's share; packed, ~150. The event is built again only when its post
 * releases it, equal in every field to the one that waited:
 * - its subject's id is the post it waits for, and the subject's author is found in that id (an offset);
 * - its id is a prefix, its author, a middle and its own key (Bluesky: `at://` did `/app.bsky.feed.like/` rkey):
 *   the prefix and middle are the same for most events, so the room keeps them once (VoteShapes) and the string only
 *   the author and the key;
 * - its CID, when it is the text of a multibase `b` (base32) CID, as its bytes: 36 where the text takes 59;
 * - its times (ms) and where it was read as the 8 bytes of each number, which kept as numbers would each be a boxed
 *   heap number of their own (16 bytes plus the field), and a read time ISO 8601 as its ms.
 * An event this cannot hold exactly (a proof, a subject elsewhere than the post, an id without its author in it, a
 * read time that is not the ISO form of its ms...) is not packed: the room keeps it as it came.
 *
 * Layout: the fixed header (below), the read position's numbers (none, the position, or it and the time), the CID's
 * bytes, the author, the key, and last the CID's text when it is kept as text. Each byte is a char 0-255, so the
 * string stays one byte a char (the author's and key's chars as they are).
 */
export type PackedVote = string;

// Bytes 0-3: which list the entry began (WaitingRoom.order tells lists apart by their first entry; generationCodes).
const AT = 4; // 8 bytes: when it began to wait, this process's clock (ms)
const FLAGS = 12; // bit 0: repost; bits 1-2: the CID (CID_*); bits 3-4: the read position (READ_*)
const SHAPE = 13; // the id's prefix and middle (VoteShapes)
const CREATED = 14; // 8 bytes: the event's createdAt (ms)
const SUBJECT_AUTHOR = 22; // 2 bytes: where the subject's author starts in the post id; 2 more: its length
const AUTHOR_LENGTH = 26; // 2 bytes
const KEY_LENGTH = 28; // 2 bytes
const CID_BYTES = 30; // 1 byte: how many bytes the CID has (CID_BYTES_KIND)
const HEADER = 31;

const CID_ABSENT = 0;
const CID_NULL = 1;
const CID_BINARY = 2;
const CID_TEXT = 3;
const READ_NONE = 0;
const READ_NO_TIME = 1;
const READ_TIME = 2;
const MAX_SHAPES = 255;
const MAX_LENGTH = 0xffff;

/**
 * The prefixes and middles of the ids of the events packed (a room's own: a handful on a network, one for each kind
 * of record; past MAX_SHAPES an event of a new shape is not packed).
 */
export class VoteShapes {
  readonly prefixes: string[] = [];
  readonly middles: string[] = [];

  /** The index of the shape of `id` (its author at `author`, its key at `key`), added if new; -1: table full. */
  indexOf(id: string, author: number, authorEnd: number, key: number): number {
    const { prefixes, middles } = this;
    for (let s = 0; s < prefixes.length; s++) {
      const prefix = prefixes[s] ?? '';
      const middle = middles[s] ?? '';
      if (
        prefix.length === author &&
        middle.length === key - authorEnd &&
        id.startsWith(prefix) &&
        id.startsWith(middle, authorEnd)
      )
        return s;
    }
    if (prefixes.length >= MAX_SHAPES) return -1;
    prefixes.push(copyOf(id, 0, author));
    middles.push(copyOf(id, authorEnd, key));
    return prefixes.length - 1;
  }
}

// A number's 8 bytes, through one shared buffer (a typed array per call would cost more than the packing).
const float = new Float64Array(1);
const floatBytes = new Uint8Array(float.buffer);

function pushNumber(codes: number[], n: number): void {
  float[0] = n;
  for (let i = 0; i < 8; i++) codes.push(floatBytes[i] ?? 0);
}

function numberAt(s: string, at: number): number {
  for (let i = 0; i < 8; i++) floatBytes[i] = s.charCodeAt(at + i);
  return float[0] ?? NaN;
}

/** The 4 bytes (little-endian) of a list's generation, a uint32 (WaitingRoom). */
const generationCodes = (g: number): number[] => [g & 0xff, (g >>> 8) & 0xff, (g >>> 16) & 0xff, g >>> 24];

const uint16At = (s: string, at: number): number => s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8);

/**
 * `s.slice(start, end)` as a string of its own: V8 makes a slice of 13 chars or more a view that keeps all of `s`
 * alive, and what a released event carries may be kept for long (its author in the interest's people); a join of
 * two non-empty pieces is copied into a new flat string.
 */
function copyOf(s: string, start: number, end: number): string {
  if (end - start < 2) return s.slice(start, end);
  const middle = (start + end) >> 1;
  return [s.slice(start, middle), s.slice(middle, end)].join('');
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const BASE32_VALUE = new Int8Array(128).fill(-1);
for (let v = 0; v < 32; v++) BASE32_VALUE[BASE32.charCodeAt(v)] = v;

/**
 * The bytes of a multibase `b` CID text, pushed onto `codes` (their count returned), when writing them out again
 * gives this very text (lower case, unpadded, no stray bits); else -1 and `codes` as it was.
 */
function pushBase32(codes: number[], text: string): number {
  const chars = text.length - 1;
  const count = Math.floor((chars * 5) / 8);
  if (text.charCodeAt(0) !== 98 || Math.ceil((count * 8) / 5) !== chars || count > 255) return -1;
  const from = codes.length;
  let buffer = 0;
  let bits = 0;
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? (BASE32_VALUE[code] ?? -1) : -1;
    if (v < 0) {
      codes.length = from;
      return -1;
    }
    buffer = ((buffer << 5) | v) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      codes.push((buffer >>> bits) & 0xff);
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) {
    codes.length = from;
    return -1;
  }
  return count;
}

/** `b` and the base32 of `count` bytes of `s` from `at`. */
function base32At(s: string, at: number, count: number): string {
  const codes = [98];
  let buffer = 0;
  let bits = 0;
  for (let i = at; i < at + count; i++) {
    buffer = ((buffer << 8) | s.charCodeAt(i)) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      codes.push(BASE32.charCodeAt((buffer >>> bits) & 31));
    }
  }
  if (bits > 0) codes.push(BASE32.charCodeAt((buffer << (5 - bits)) & 31));
  return String.fromCharCode(...codes);
}

// The last read position packed and its bytes: the events of one frame share it, so its time is checked once.
let lastRead: ReadPosition | null = null;
let lastReadCodes: number[] | null = null;

/** The bytes of `read` (READ_* and the numbers), or null when its time is not the ISO 8601 form of its ms. */
function readCodes(read: ReadPosition): number[] | null {
  if (read === lastRead) return lastReadCodes;
  lastRead = read;
  lastReadCodes = null;
  const ms = read.time === null ? NaN : Date.parse(read.time);
  if (read.time !== null && !(Number.isFinite(ms) && new Date(ms).toISOString() === read.time)) return null;
  const codes = [read.time === null ? READ_NO_TIME : READ_TIME];
  pushNumber(codes, read.position);
  if (read.time !== null) pushNumber(codes, ms);
  lastReadCodes = codes;
  return codes;
}

/**
 * `event` waiting for the post `postId` since `at`, read at `read`, packed as the first entry of list `generation`
 * (0 for one that is not first); null when it is not a like or repost this can give back exactly.
 */
export function packVote(
  shapes: VoteShapes,
  postId: string,
  event: StreamEvent,
  at: number,
  read: ReadPosition | null,
  generation: number,
): PackedVote | null {
  if (event.type !== 'like' && event.type !== 'repost') return null;
  if (event.subject.id !== postId || 'proof' in event) return null;
  const { id, authorId, subject } = event;
  const author = id.indexOf(authorId);
  if (author < 0 || authorId.length > MAX_LENGTH) return null;
  const authorEnd = author + authorId.length;
  const slash = id.lastIndexOf('/');
  const key = slash >= authorEnd ? slash + 1 : authorEnd;
  if (id.length - key > MAX_LENGTH) return null;
  const subjectAuthor = postId.indexOf(subject.authorId);
  if (subjectAuthor < 0 || subjectAuthor > MAX_LENGTH || subject.authorId.length > MAX_LENGTH) return null;
  const readPart = read ? readCodes(read) : null;
  if (read && !readPart) return null;
  const shape = shapes.indexOf(id, author, authorEnd, key);
  if (shape < 0) return null;

  const codes = generationCodes(generation);
  pushNumber(codes, at);
  codes.push(0, shape); // FLAGS, written below
  pushNumber(codes, event.createdAt.getTime());
  codes.push(
    subjectAuthor & 0xff,
    subjectAuthor >>> 8,
    subject.authorId.length & 0xff,
    subject.authorId.length >>> 8,
  );
  codes.push(
    authorId.length & 0xff,
    authorId.length >>> 8,
    (id.length - key) & 0xff,
    (id.length - key) >>> 8,
    0,
  );
  if (readPart) for (let i = 1; i < readPart.length; i++) codes.push(readPart[i] ?? 0);
  let cid = CID_ABSENT;
  let cidText = '';
  if ('cid' in event) {
    if (event.cid === null) cid = CID_NULL;
    else if (typeof event.cid !== 'string')
      return null; // present but undefined: not told apart from absent
    else {
      const count = pushBase32(codes, event.cid);
      if (count >= 0) {
        cid = CID_BINARY;
        codes[CID_BYTES] = count;
      } else {
        cid = CID_TEXT;
        cidText = event.cid;
      }
    }
  }
  codes[FLAGS] = (event.type === 'repost' ? 1 : 0) | (cid << 1) | ((readPart?.[0] ?? READ_NONE) << 3);
  // Joined, so V8 copies the pieces into one flat string (concatenated, it would keep a tree of them).
  return [String.fromCharCode(...codes), authorId, id.slice(key), cidText].join('');
}

/** When the packed vote began to wait (ms, this process's clock). */
export const packedAt = (vote: PackedVote): number => numberAt(vote, AT);

/** Where the packed vote was read (null: unknown), a new object each time. */
export function packedRead(vote: PackedVote): ReadPosition | null {
  const kind = (vote.charCodeAt(FLAGS) >> 3) & 3;
  if (kind === READ_NONE) return null;
  const position = numberAt(vote, HEADER);
  return { position, time: kind === READ_TIME ? new Date(numberAt(vote, HEADER + 8)).toISOString() : null };
}

/** The packed vote as the first entry of list `generation` (a list put back in the queue: WaitingRoom.rewind). */
export function withGeneration(vote: PackedVote, generation: number): PackedVote {
  return [String.fromCharCode(...generationCodes(generation)), vote.slice(AT)].join('');
}

/** The event again, equal to the one packed, for the post `postId` it waited for. */
export function unpackVote(shapes: VoteShapes, postId: string, vote: PackedVote): StreamEvent {
  const flags = vote.charCodeAt(FLAGS);
  const readKind = (flags >> 3) & 3;
  const cidKind = (flags >> 1) & 3;
  const cidBytes = cidKind === CID_BINARY ? vote.charCodeAt(CID_BYTES) : 0;
  const authorAt = HEADER + (readKind === READ_NONE ? 0 : readKind === READ_NO_TIME ? 8 : 16) + cidBytes;
  const keyAt = authorAt + uint16At(vote, AUTHOR_LENGTH);
  const keyEnd = keyAt + uint16At(vote, KEY_LENGTH);
  const shape = vote.charCodeAt(SHAPE);
  const subjectAuthor = uint16At(vote, SUBJECT_AUTHOR);
  const authorId = copyOf(vote, authorAt, keyAt);
  return {
    type: flags & 1 ? 'repost' : 'like',
    id: [shapes.prefixes[shape], authorId, shapes.middles[shape], vote.slice(keyAt, keyEnd)].join(''),
    authorId,
    subject: {
      id: postId,
      authorId: copyOf(postId, subjectAuthor, subjectAuthor + uint16At(vote, SUBJECT_AUTHOR + 2)),
    },
    createdAt: new Date(numberAt(vote, CREATED)),
    ...(cidKind === CID_NULL
      ? { cid: null }
      : cidKind === CID_BINARY
        ? { cid: base32At(vote, authorAt - cidBytes, cidBytes) }
        : cidKind === CID_TEXT
          ? { cid: copyOf(vote, keyEnd, vote.length) }
          : {}),
  };
}
