import { useState } from 'react';
import type { Branding } from '@manaboard/contract';

type Video = NonNullable<Branding['video']>;

type VideoFacadeProps = {
  video: Video;
  className?: string;
};

/** The player's address: youtube-nocookie.com, which sets no cookies until the visitor plays. */
export function embedUrl(youtubeId: string): string {
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(youtubeId)}?autoplay=1&rel=0`;
}

/**
 * The promo video as a privacy-friendly facade: our own poster and a play button; the player frame (and so any
 * contact with the video host) appears only on play.
 */
export function VideoFacade({ video, className = '' }: VideoFacadeProps) {
  const [playing, setPlaying] = useState(false);
  return (
    <div
      className={`relative aspect-video w-full overflow-hidden rounded-3xl border border-white/10 bg-night shadow-2xl shadow-mana/10 ${className}`}
    >
      {playing ? (
        <iframe
          src={embedUrl(video.youtubeId)}
          title={video.title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="absolute inset-0 h-full w-full border-0"
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          className="group absolute inset-0 h-full w-full focus-visible:outline-4 focus-visible:-outline-offset-4 focus-visible:outline-gold"
        >
          <img
            src={video.posterUrl}
            alt=""
            width={1280}
            height={720}
            className="absolute inset-0 h-full w-full object-cover"
          />
          <span className="sr-only">Play video: {video.title}</span>
          <span
            aria-hidden="true"
            className="absolute left-1/2 top-1/2 grid h-20 w-20 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white/95 shadow-xl shadow-black/50 ring-4 ring-gold/70 transition-transform group-hover:scale-110"
          >
            <svg viewBox="0 0 24 24" className="ml-1 h-9 w-9 fill-mana">
              <path d="M8 5v14l11-7z" />
            </svg>
          </span>
        </button>
      )}
    </div>
  );
}
