import { useState } from 'react';
import { Modal } from './modal';

export type ConfirmRequest = {
  title: string;
  body: string;
  confirmLabel: string;
  /** A destructive action gets a red button. */
  danger?: boolean;
  onConfirm: () => void;
};

/** A yes/no question in the shared modal shell (focus trapped, Esc cancels, focus returns to the opener). */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  // The last question stays on screen while the dialog fades out.
  const [shown, setShown] = useState(request);
  if (request && request !== shown) setShown(request);
  const current = request ?? shown;
  return (
    <Modal open={request !== null} onClose={onClose} title={current?.title ?? ''} widthClass="max-w-md">
      <p className="text-sm leading-relaxed text-violet-100">{current?.body}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={onClose}
          className="rounded-full border border-white/20 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={() => {
            request?.onConfirm();
            onClose();
          }}
          className={`rounded-full px-4 py-2 text-sm font-bold text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold ${
            current?.danger ? 'bg-rose-700 hover:bg-rose-600' : 'bg-violet-700 hover:bg-violet-600'
          }`}
        >
          {current?.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
