import { isBase32, Pieces, pushText5 } from './stream-waiting-bytes';

/**
 * The waiting room's key for a post id (issue 31): a full room holds ~50,000 of them, and the id as it came took 88
 * bytes of heap (Bluesky: `at://did:plc:` and 24 chars, `/app.bsky.feed.post/` and a 13-char key). The key names
 * the prefix up to the last ':' before the id's last two '/' and the piece between them (kept once: Pieces), then
 * the chars between them and those after, 5 bits a char when base32 (stream-waiting-bytes.ts): 48 bytes. Never read
 * back (the room is given the post id whenever it needs it), a key needs only be the same for the same id and
 * differ for another: the pieces' indices never change, and the lengths say where each part ends. An id of another
 * form, or once 255 pieces are taken, is its own key behind a 0 (a packed key begins with a piece's index + 1).
 */
export class PostKeys {
  private readonly pieces = new Pieces();

  keyOf(postId: string): string {
    const last = postId.lastIndexOf('/');
    const middle = last > 0 ? postId.lastIndexOf('/', last - 1) : -1;
    if (middle <= 0) return ['\0', postId].join('');
    const between = postId.lastIndexOf(':', middle - 1) + 1;
    const after = last + 1;
    if (middle - between > 255 || postId.length - after > 255) return ['\0', postId].join('');
    const prefix = this.pieces.indexOf(postId, 0, between);
    const piece = this.pieces.indexOf(postId, middle, after);
    if (prefix < 0 || piece < 0) return ['\0', postId].join('');
    const base32Between = isBase32(postId, between, middle);
    const base32After = isBase32(postId, after, postId.length);
    let codes = [prefix + 1, piece, (base32Between ? 1 : 0) | (base32After ? 2 : 0)];
    codes.push(middle - between, postId.length - after);
    // Joined, so V8 copies the parts into one flat string (concatenated, it would keep a tree of them).
    const parts: string[] = [];
    const part = (start: number, end: number, base32: boolean) => {
      if (base32) return pushText5(codes, postId, start, end);
      parts.push(String.fromCharCode(...codes), postId.slice(start, end));
      codes = [];
    };
    part(between, middle, base32Between);
    part(after, postId.length, base32After);
    parts.push(String.fromCharCode(...codes));
    return parts.join('');
  }
}
