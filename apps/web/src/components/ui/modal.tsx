import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useDialogBehaviour } from './use-dialog-behaviour';
import { useModalPresence, type ModalPhase } from './use-modal-presence';
import { CloseIcon } from './close-icon';

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** SPEC: What's New closes on a backdrop click; other modals decide for themselves. */
  closeOnBackdrop?: boolean;
  /** Tailwind max-width class of the panel. */
  widthClass?: string;
  /** The torn-paper card frame around the panel: decoration only, hidden from assistive technology. */
  tornPaper?: boolean;
};

/**
 * The modal shell every modal reuses: the SPEC §4 lifecycle (10 ms to visible, 300 ms close, then unmounted),
 * scroll lock, Esc, a focus trap with focus returned on close, and a labelled `role="dialog"`.
 */
export function Modal(props: ModalProps) {
  const phase = useModalPresence(props.open);
  if (phase === 'closed') return null;
  return createPortal(<ModalFrame {...props} phase={phase} />, document.body);
}

function ModalFrame({
  onClose,
  title,
  children,
  closeOnBackdrop = false,
  widthClass = 'max-w-lg',
  tornPaper = false,
  phase,
}: ModalProps & { phase: Exclude<ModalPhase, 'closed'> }) {
  const visible = phase === 'open';
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useDialogBehaviour(panel, onClose);

  return (
    <div
      className={`fixed inset-0 z-50 flex items-center justify-center bg-black/75 p-4 backdrop-blur-sm transition-opacity duration-300 motion-reduce:transition-none ${visible ? 'opacity-100' : 'opacity-0'}`}
      data-state={visible ? 'open' : 'closed'}
      data-phase={phase}
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative flex max-h-full w-full ${widthClass} flex-col rounded-2xl border border-mana/30 ${tornPaper ? '' : 'bg-night'} shadow-2xl shadow-mana/20 outline-none transition-transform duration-300 motion-reduce:transition-none ${visible ? 'scale-100' : 'scale-95'}`}
      >
        {tornPaper ? <TornPaperFrame /> : null}
        {/* Over the paper, under the content: the panel's own background when the paper frames it. */}
        {tornPaper ? (
          <div aria-hidden="true" className="absolute inset-0 -z-[5] rounded-2xl bg-night" />
        ) : null}
        <div className="flex items-start justify-between gap-4 border-b border-white/10 px-6 py-4">
          <h2 id={titleId} className="text-xl font-bold tracking-tight text-white">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="-mr-2 rounded-lg p-2 text-violet-200 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-mana-soft"
          >
            <CloseIcon className="h-5 w-5" />
          </button>
        </div>
        {/* On short screens the body scrolls, so the title and Close stay reachable. */}
        <div className="min-h-0 overflow-y-auto px-6 py-5">{children}</div>
      </div>
    </div>
  );
}

/** Torn paper peeking out around the panel (SPEC §2: "purely decorative"). */
function TornPaperFrame() {
  return (
    <div
      aria-hidden="true"
      data-testid="torn-paper-frame"
      className="pointer-events-none absolute -inset-2.5 -z-10 sm:-inset-3.5"
    >
      <img
        src="/brand/torn-paper.svg"
        alt=""
        className="h-full w-full -rotate-1 opacity-90 drop-shadow-[0_10px_30px_rgba(0,0,0,0.6)]"
      />
    </div>
  );
}
