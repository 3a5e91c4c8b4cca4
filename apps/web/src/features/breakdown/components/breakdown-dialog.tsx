import { displayHandle } from '@manaboard/contract';
import { Modal } from '../../../components/ui/modal';
import { leaderboardErrorText } from '../../../lib/board-error';
import { formatMana } from '../../../lib/format-mana';
import { useBreakdown } from '../api/get-breakdown';
import type { BreakdownTarget } from '../../../lib/breakdown-target';
import { BreakdownLines } from './breakdown-lines';

type BreakdownDialogProps = { target: BreakdownTarget; open: boolean; onClose: () => void };

/**
 * The Mana breakdown (beyond SPEC; issue 7): the ledger lines behind a figure for its period, in the shared
 * modal shell — posts with counts, weights, multiplier and Mana; referrals; interactions with due dates — and
 * their sum beside the figure the page showed.
 */
export function BreakdownDialog({ target, open, onClose }: BreakdownDialogProps) {
  const breakdown = useBreakdown(target.authorId, target.weekly, open);
  const handle = displayHandle(target.authorName);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={`Mana breakdown: ${handle}`}
      widthClass="max-w-2xl"
      closeOnBackdrop
    >
      <p className="mb-4 text-sm text-violet-200/85">
        {target.weekly ? 'This week' : 'All time'} · the leaderboard shows{' '}
        <strong className="text-white">{formatMana(target.figure)} Mana</strong>
      </p>
      {breakdown.isPending ? (
        <div role="status" className="flex justify-center py-8">
          <img
            src="/spinner-mana.svg"
            alt="Loading the breakdown"
            width={48}
            height={48}
            className="h-12 w-12"
          />
        </div>
      ) : breakdown.isError ? (
        <p role="alert" className="py-6 text-center text-sm font-semibold text-rose-300">
          {leaderboardErrorText(breakdown.error, 'breakdown')}
        </p>
      ) : (
        <BreakdownLines data={breakdown.data} figure={target.figure} />
      )}
    </Modal>
  );
}
