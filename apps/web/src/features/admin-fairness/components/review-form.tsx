import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { fairnessReviewRequestSchema, type FairnessFlag } from '@manaboard/contract/admin';
import { fairnessKeys, reviewFairnessFlag } from '../api/fairness';
import { field, label, primaryButton } from './styles';

/** The operator's review of one flag: what they concluded, in a sentence (kept and audited; advice stays advice). */
export function ReviewForm({ flag }: { flag: FairnessFlag }) {
  const client = useQueryClient();
  const id = useId();
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState('');
  const review = useMutation({
    mutationFn: reviewFairnessFlag,
    onSuccess: () => {
      setNote('');
      setProblem('');
    },
    onError: (error) => setProblem(error.message),
    onSettled: () => client.invalidateQueries({ queryKey: fairnessKeys.all }),
  });
  return (
    <form
      aria-label={`Review the ${flag.kind.replace('_', ' ')} flag on @${flag.handle}`}
      className="mt-3 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        const body = fairnessReviewRequestSchema.safeParse({
          subjectId: flag.subjectId,
          kind: flag.kind,
          note,
        });
        if (!body.success) {
          setProblem('Say what you concluded, in at most 500 characters.');
          return;
        }
        setProblem('');
        review.mutate(body.data);
      }}
    >
      <label htmlFor={`${id}-note`} className={label}>
        {flag.review ? 'Review again' : 'Your review'}
      </label>
      <textarea
        id={`${id}-note`}
        value={note}
        maxLength={500}
        rows={2}
        aria-describedby={`${id}-hint`}
        placeholder="e.g. Dismissed: a club of friends. Or: Confirmed, disqualifying on the member's page."
        onChange={(event) => setNote(event.target.value)}
        className={field}
      />
      <p id={`${id}-hint`} className="text-xs text-violet-200">
        Dismiss or confirm in a sentence. Saving a review changes no one&apos;s Mana; disqualify from the
        member&apos;s page if you decide to.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={primaryButton} disabled={review.isPending}>
          {review.isPending ? 'Saving…' : 'Save review'}
        </button>
        <p role="status" className="text-sm text-emerald-200 empty:hidden">
          {review.isSuccess ? 'Review saved.' : ''}
        </p>
      </div>
      <p role="alert" className="text-sm text-rose-200 empty:hidden">
        {problem}
      </p>
    </form>
  );
}
