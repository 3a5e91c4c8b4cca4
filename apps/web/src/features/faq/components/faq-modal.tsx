import { Modal } from '../../../components/ui/modal';
import { PagedSteps } from '../../../components/ui/paged-steps';
import { useBranding } from '../../../lib/branding';

type Props = { open: boolean; onClose: () => void };

/** FAQ (SPEC §2): the 3 pages of the branding's FAQ, with the same navigation as How to earn Mana. */
export function FaqModal({ open, onClose }: Props) {
  const branding = useBranding();
  return (
    <Modal open={open} onClose={onClose} title="FAQ" widthClass="max-w-2xl" tornPaper>
      {branding ? (
        <PagedSteps pages={branding.faq} label="FAQ pages" />
      ) : (
        <p role="status" className="py-10 text-center text-violet-200">
          Loading…
        </p>
      )}
    </Modal>
  );
}
