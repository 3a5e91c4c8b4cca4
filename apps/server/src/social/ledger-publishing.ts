/**
 * The publication half of the port (issue 30, ADR 014): the programme's official account posts a closed week's
 * ledger hash in its own repository, as an ordinary post any client shows. An adapter that can (Bluesky, with the
 * app account's credentials) implements it; without one the console shows the text to post by hand.
 */

/** A post the network holds: its address and content hash, when it was made, and where a person sees it. */
export type PublishedPost = { uri: string; cid: string; at: Date; url: string | null };

export type LedgerPublication = {
  /** The post's whole text. */
  text: string;
  /** The ledger's URL, as it appears in the text (a link where the network has them). */
  link: string;
  /** What marks this publication in a post already made (the hash): a retry finds it and posts nothing. */
  marker: string;
  /** The account it must come from, as the rules name it: the first official handle. */
  officialHandle: string;
};

export interface LedgerPublishing {
  /**
   * Posts the publication from the official account, once: when a post of the account already carries the marker
   * (an earlier attempt that was made but not recorded), that post is returned and nothing is posted.
   */
  publishLedger(publication: LedgerPublication): Promise<PublishedPost>;
}

/** The network refuses for a reason a retry will not fix soon (the credentials name another account, too long). */
export class PublicationRefusedError extends Error {
  override readonly name = 'PublicationRefusedError';
}
