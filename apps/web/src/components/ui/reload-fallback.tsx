type ReloadFallbackProps = { message: string; className?: string };

/**
 * What an error boundary shows when part of the page failed to load (typically a chunk, after a deploy or on a
 * dropped connection): the message and a Reload button, which fetches the current build.
 */
export function ReloadFallback({ message, className = '' }: ReloadFallbackProps) {
  return (
    <div role="alert" className={`flex flex-col items-center justify-center gap-3 text-center ${className}`}>
      <p className="text-sm font-semibold text-rose-200">{message}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-full border border-rose-300/60 px-4 py-1 text-sm font-semibold text-rose-100 hover:bg-rose-300/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
      >
        Reload
      </button>
    </div>
  );
}
