import { normaliseHandle } from '@manaboard/contract';
import { useState } from 'react';

type AccountAvatarProps = { handle: string; avatarUrl: string | null; size: 'sm' | 'lg' };

const sizes = { sm: 'h-7 w-7 text-sm', lg: 'h-12 w-12 text-2xl' } as const;

/** The member's avatar, or the handle's first letter on a purple circle when there is none (or it fails). */
export function AccountAvatar({ handle, avatarUrl, size }: AccountAvatarProps) {
  const [broken, setBroken] = useState(false);
  const box = `${sizes[size]} shrink-0 rounded-full`;
  if (avatarUrl && !broken) {
    return (
      <img
        src={avatarUrl}
        alt=""
        className={`${box} bg-mana object-cover ring-2 ring-gold/60`}
        onError={() => setBroken(true)}
      />
    );
  }
  const letter = (normaliseHandle(handle)[0] ?? '?').toUpperCase();
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-letter"
      className={`${box} flex items-center justify-center bg-violet-700 font-extrabold text-white ring-2 ring-gold/60`}
    >
      {letter}
    </span>
  );
}
