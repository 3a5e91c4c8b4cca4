import { useState } from 'react';

/** An author's picture, or the handle's first letter on a purple circle when there is none or it fails. */
export function AuthorAvatar({
  handle,
  url,
  size = 'h-8 w-8 text-sm',
}: {
  handle: string;
  url: string | null;
  size?: string;
}) {
  const [broken, setBroken] = useState(false);
  if (url && !broken) {
    return (
      <img
        src={url}
        alt=""
        loading="lazy"
        width={32}
        height={32}
        className={`${size} shrink-0 rounded-full bg-dusk object-cover`}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="author-letter"
      className={`${size} flex shrink-0 items-center justify-center rounded-full bg-mana font-extrabold text-white`}
    >
      {(handle.replace(/^@/, '')[0] ?? '?').toUpperCase()}
    </span>
  );
}
