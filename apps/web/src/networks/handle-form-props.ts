// Its own file, beside the list: the list (networks.ts) names each network's form, and each form takes these
// props, so neither imports the other.

/** What a network's handle form gets from the card: send the handle, go back, and the last failure to announce. */
export type HandleFormProps = {
  onSubmit: (handle: string) => void;
  onCancel: () => void;
  /** The message of the last failed start (shown and announced), or null. */
  error: string | null;
  busy: boolean;
  /** 'link' (the member card, default) or 'signIn' (the operator console): the words change, nothing else. */
  purpose?: 'link' | 'signIn';
};
