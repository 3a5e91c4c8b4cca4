import type { StreamEvent } from './stream-events';
import type { Pieces } from './stream-waiting-bytes';
import {
  base32At,
  copyOf,
  fitsShort,
  isBase32,
  numberAt,
  pushBase32,
  pushNumber,
  pushText5,
  text5At,
  text5Bytes,
  uint16At,
} from './stream-waiting-bytes';
import type { ReadPosition } from './stream-read-position';

/**
 * A like or repost waiting for its post, as one flat string of bytes (issue 31). On the public network nearly every
 * like names a post the programme never sees, so a full waiting room is ~50,000 of these in the stream's thread: as
 * an object with its own strings (id, author, subject's author, CID text), two boxed times and a read position it
 * was ~650 bytes of heap each with the room's share; this string is ~120 (stream-waiting-bytes.ts). The event is
 * built again only when its post releases it, equal in every field to the one that waited:
 * - its subject's id is the post it waits for, and the subject's author is found in that id (an offset);
 * - its id is a prefix, its author, a middle and its own key (Bluesky: `at://`, the DID, `/app.bsky.feed.like/`, the
 *   rkey), and its author a prefix up to its last ':' (`did:plc:`) and the rest: the prefixes and middles are the
 *   same for most events, so the room keeps them once (Pieces), and the rest and the key, when base32 as on
 *   Bluesky, take 5 bits a char;
 * - its CID, when it is the text of a multibase `b` (base32) CID, as its bytes: 36 where the text takes 59;
 * - its times (ms) and where it was read as 6 bytes each (8 for a number that is not an integer from 0 to 2^48),
 *   where a number field would be a boxed heap number (16 bytes and the field's 8), and a read time ISO 8601 as its
 *   ms.
 * An event this cannot hold exactly (a proof, a subject elsewhere than the post, an id without its author in it, a
 * read time that is not the ISO form of its ms...) is not packed: the room keeps it as it came.
 *
 * Layout: the fixed header (below), the numbers, the CID's bytes, the author's rest, the key, and last the CID's
 * text when it is kept as text.
 */
export type PackedVote = string;

// Bytes 0-3: which list the entry began (WaitingRoom.order tells lists apart by their first entry; generationCodes).
const FLAGS = 4; // bit 0: repost; 1-2: the CID (CID_*); 3-4: the read position (READ_*); 5: SHORT; 6-7: TEXT5_*
const ID_PREFIX = 5; // the id's piece before the author (Pieces)
const ID_MIDDLE = 6; // the id's piece between the author and the key
const AUTHOR_PREFIX = 7; // the author's piece up to its last ':' (a DID's method)
const SUBJECT_AUTHOR = 8; // 2 bytes: where the subject's author starts in the post id; 2 more: its length
const AUTHOR_TAIL = 12; // 2 bytes: how many chars the author has after its prefix
const KEY = 14; // 2 bytes: how many chars the key has
const CID_BYTES = 16; // how many bytes the CID has (CID_BINARY)
const HEADER = 17; // then the numbers: when it began to wait, createdAt, and the read position's (READ_*)

const CID_ABSENT = 0;
const CID_NULL = 1;
const CID_BINARY = 2;
const CID_TEXT = 3;
const READ_NONE = 0;
const READ_NO_TIME = 1;
const READ_TIME = 2;
/** The numbers take 6 bytes each (all fit: fitsShort), not 8. */
const SHORT = 1 << 5;
/** The author's chars after its prefix are base32, 5 bits each (pushText5). */
const TEXT5_AUTHOR = 1 << 6;
/** The key's chars are base32, 5 bits each. */
const TEXT5_KEY = 1 << 7;
const MAX_LENGTH = 0xffff;

/** The 4 bytes (little-endian) of a list's generation, a uint32 (WaitingRoom). */
const generationCodes = (g: number): number[] => [g & 0xff, (g >>> 8) & 0xff, (g >>> 16) & 0xff, g >>> 24];

// The last read position packed and its time's ms: the events of one frame share it, so its time is read once.
let lastRead: ReadPosition | null = null;
let lastReadMs = NaN;

/** The ms of `read`'s time when it is their ISO 8601 form (so it comes back as it was); else NaN. */
function readMs(read: ReadPosition, time: string): number {
  if (read === lastRead) return lastReadMs;
  const ms = Date.parse(time);
  lastRead = read;
  lastReadMs = Number.isFinite(ms) && new Date(ms).toISOString() === time ? ms : NaN;
  return lastReadMs;
}

/**
 * `event` waiting for the post `postId` since `at`, read at `read`, packed as the first entry of list `generation`
 * (any for one that is not first); null when it is not a like or repost this can give back exactly.
 */
export function packVote(
  pieces: Pieces,
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
  if (author < 0) return null;
  const authorEnd = author + authorId.length;
  const slash = id.lastIndexOf('/');
  const key = slash >= authorEnd ? slash + 1 : authorEnd;
  const tailAt = authorId.lastIndexOf(':') + 1;
  const tail = authorId.length - tailAt;
  const keyChars = id.length - key;
  const subjectAuthor = postId.indexOf(subject.authorId);
  const subjectLength = subject.authorId.length;
  if (tail > MAX_LENGTH || keyChars > MAX_LENGTH || subjectAuthor < 0 || subjectAuthor > MAX_LENGTH)
    return null;
  if (subjectLength > MAX_LENGTH) return null;
  const time = read?.time == null ? NaN : readMs(read, read.time);
  if (read && read.time !== null && Number.isNaN(time)) return null;
  const readKind = !read ? READ_NONE : read.time === null ? READ_NO_TIME : READ_TIME;

  const cidCodes: number[] = [];
  let cid = CID_ABSENT;
  if ('cid' in event) {
    if (event.cid === null) cid = CID_NULL;
    else if (typeof event.cid !== 'string')
      return null; // present but undefined: not told apart from absent
    else cid = pushBase32(cidCodes, event.cid) >= 0 ? CID_BINARY : CID_TEXT;
  }
  const idPrefix = pieces.indexOf(id, 0, author);
  const idMiddle = pieces.indexOf(id, authorEnd, key);
  const authorPrefix = pieces.indexOf(authorId, 0, tailAt);
  if (idPrefix < 0 || idMiddle < 0 || authorPrefix < 0) return null;

  const created = event.createdAt.getTime();
  const short =
    fitsShort(at) &&
    fitsShort(created) &&
    (!read || fitsShort(read.position)) &&
    (readKind !== READ_TIME || fitsShort(time));
  const text5Author = isBase32(authorId, tailAt, authorId.length);
  const text5Key = isBase32(id, key, id.length);
  const flags =
    (event.type === 'repost' ? 1 : 0) |
    (cid << 1) |
    (readKind << 3) |
    (short ? SHORT : 0) |
    (text5Author ? TEXT5_AUTHOR : 0) |
    (text5Key ? TEXT5_KEY : 0);
  let codes = generationCodes(generation);
  codes.push(flags, idPrefix, idMiddle, authorPrefix, subjectAuthor & 0xff, subjectAuthor >>> 8);
  codes.push(
    subjectLength & 0xff,
    subjectLength >>> 8,
    tail & 0xff,
    tail >>> 8,
    keyChars & 0xff,
    keyChars >>> 8,
  );
  codes.push(cidCodes.length);
  pushNumber(codes, at, short);
  pushNumber(codes, created, short);
  if (read) pushNumber(codes, read.position, short);
  if (readKind === READ_TIME) pushNumber(codes, time, short);
  if (cid === CID_BINARY) for (const byte of cidCodes) codes.push(byte);
  // Joined, so V8 copies the pieces into one flat string (concatenated, it would keep a tree of them).
  const parts: string[] = [];
  const text = (s: string, start: number, end: number, base32: boolean) => {
    if (base32) return pushText5(codes, s, start, end);
    parts.push(String.fromCharCode(...codes), s.slice(start, end));
    codes = [];
  };
  text(authorId, tailAt, authorId.length, text5Author);
  text(id, key, id.length, text5Key);
  parts.push(String.fromCharCode(...codes), cid === CID_TEXT ? (event.cid ?? '') : '');
  return parts.join('');
}

const shortOf = (vote: PackedVote): boolean => (vote.charCodeAt(FLAGS) & SHORT) !== 0;

/** When the packed vote began to wait (ms, this process's clock). */
export const packedAt = (vote: PackedVote): number => numberAt(vote, HEADER, shortOf(vote));

/** Where the packed vote was read (null: unknown), a new object each time. */
export function packedRead(vote: PackedVote): ReadPosition | null {
  const kind = (vote.charCodeAt(FLAGS) >> 3) & 3;
  if (kind === READ_NONE) return null;
  const short = shortOf(vote);
  const width = short ? 6 : 8;
  const position = numberAt(vote, HEADER + 2 * width, short);
  const time = kind === READ_TIME ? new Date(numberAt(vote, HEADER + 3 * width, short)).toISOString() : null;
  return { position, time };
}

/** The packed vote as the first entry of list `generation` (a list put back in the queue: WaitingRoom.rewind). */
export function withGeneration(vote: PackedVote, generation: number): PackedVote {
  return [String.fromCharCode(...generationCodes(generation)), vote.slice(FLAGS)].join('');
}

/** The event again, equal to the one packed, for the post `postId` it waited for. */
export function unpackVote(pieces: Pieces, postId: string, vote: PackedVote): StreamEvent {
  const flags = vote.charCodeAt(FLAGS);
  const short = (flags & SHORT) !== 0;
  const width = short ? 6 : 8;
  const readKind = (flags >> 3) & 3;
  const cidKind = (flags >> 1) & 3;
  const cidAt = HEADER + width * (readKind === READ_NONE ? 2 : readKind === READ_NO_TIME ? 3 : 4);
  let at = cidAt + (cidKind === CID_BINARY ? vote.charCodeAt(CID_BYTES) : 0);
  // The author's and the key's chars, as pushText5 or as they were.
  const text = (chars: number, base32: boolean): string => {
    const start = at;
    at += base32 ? text5Bytes(chars) : chars;
    return base32 ? text5At(vote, start, chars) : copyOf(vote, start, at);
  };
  const authorId = [
    pieces.at(vote.charCodeAt(AUTHOR_PREFIX)),
    text(uint16At(vote, AUTHOR_TAIL), (flags & TEXT5_AUTHOR) !== 0),
  ].join('');
  const key = text(uint16At(vote, KEY), (flags & TEXT5_KEY) !== 0);
  const subjectAuthor = uint16At(vote, SUBJECT_AUTHOR);
  return {
    type: flags & 1 ? 'repost' : 'like',
    id: [pieces.at(vote.charCodeAt(ID_PREFIX)), authorId, pieces.at(vote.charCodeAt(ID_MIDDLE)), key].join(
      '',
    ),
    authorId,
    subject: {
      id: postId,
      authorId: copyOf(postId, subjectAuthor, subjectAuthor + uint16At(vote, SUBJECT_AUTHOR + 2)),
    },
    createdAt: new Date(numberAt(vote, HEADER + width, short)),
    ...(cidKind === CID_NULL
      ? { cid: null }
      : cidKind === CID_BINARY
        ? { cid: base32At(vote, cidAt, vote.charCodeAt(CID_BYTES)) }
        : cidKind === CID_TEXT
          ? { cid: copyOf(vote, at, vote.length) }
          : {}),
  };
}
