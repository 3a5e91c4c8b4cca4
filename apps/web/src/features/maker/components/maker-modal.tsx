import { useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useBranding } from '../../../lib/branding';
import { useProgrammeRules } from '../../../lib/programme';
import { useOwnStats } from '../api/get-own-stats';
import { builtInMakerUrl } from './built-in-maker-url';

type Props = { open: boolean; onClose: () => void; handle: string | null };

/**
 * The sandbox of each maker: scripts, downloads and the post composer in a new tab; never top navigation,
 * forms of ours or modal dialogs. An operator's maker runs on its own origin and keeps it. Ours is a static
 * page of this origin that needs allow-same-origin for its own script and styles (the server's
 * Cross-Origin-Resource-Policy refuses them to an opaque origin); it reads nothing but its query string.
 */
const EXTERNAL_SANDBOX =
  'allow-scripts allow-same-origin allow-forms allow-downloads allow-popups allow-popups-to-escape-sandbox';
const BUILT_IN_SANDBOX =
  'allow-scripts allow-same-origin allow-downloads allow-popups allow-popups-to-escape-sandbox';

/** The maker tool (SPEC §2): the configured page, or our built-in card maker, in a sandboxed frame. */
export function MakerModal({ open, onClose, handle }: Props) {
  return (
    <Modal open={open} onClose={onClose} title="Maker tool" widthClass="max-w-6xl" tornPaper>
      <MakerFrame handle={handle} />
    </Modal>
  );
}

function MakerFrame({ handle }: { handle: string | null }) {
  const branding = useBranding();
  const rules = useProgrammeRules();
  const stats = useOwnStats(handle);
  const [loaded, setLoaded] = useState(false);
  const external = branding?.links.maker ?? null;
  const waiting = !branding || (!external && (rules.isPending || (Boolean(handle) && stats.isPending)));
  const src = waiting
    ? null
    : (external ??
      builtInMakerUrl({
        programmeName: branding.programmeName,
        hashtags: rules.data?.hashtags ?? [],
        handle,
        rank: stats.data?.rank ?? null,
        mana: stats.data?.totalMana ?? null,
      }));

  return (
    <div className="relative h-[min(70vh,720px)] min-h-[420px] overflow-hidden rounded-xl bg-ink">
      {!loaded ? (
        <div
          role="status"
          className="absolute inset-0 grid place-content-center justify-items-center gap-3 text-violet-200"
        >
          <span
            aria-hidden="true"
            className="h-10 w-10 animate-spin rounded-full border-4 border-mana/30 border-t-mana"
          />
          Loading Maker tool...
        </div>
      ) : null}
      {src ? (
        <iframe
          src={src}
          title="Maker tool"
          sandbox={external ? EXTERNAL_SANDBOX : BUILT_IN_SANDBOX}
          referrerPolicy="strict-origin-when-cross-origin"
          onLoad={() => setLoaded(true)}
          className={`h-full w-full border-0 transition-opacity ${loaded ? 'opacity-100' : 'opacity-0'}`}
        />
      ) : null}
    </div>
  );
}
