import type { Branding } from '@manaboard/contract';
import { Modal } from '../../../components/ui/modal';
import { VideoFacade } from './video-facade';

type Props = { open: boolean; onClose: () => void; video: NonNullable<Branding['video']> };

/**
 * The video on narrow screens (SPEC §2): a full-screen overlay from the Video link; Esc or its X closes it. It
 * shows the same facade: the player loads only on play.
 */
export function VideoOverlay({ open, onClose, video }: Props) {
  return (
    <Modal open={open} onClose={onClose} title="Video" widthClass="max-w-6xl" closeOnBackdrop>
      <VideoFacade video={video} />
    </Modal>
  );
}
