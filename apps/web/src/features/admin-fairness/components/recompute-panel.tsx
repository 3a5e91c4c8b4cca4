import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fairnessKeys, recomputeFairness } from '../api/fairness';
import { primaryButton } from './styles';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Runs the detector now (the worker also runs it hourly) and says what it found; the list refreshes after. */
export function RecomputePanel({ computedAt }: { computedAt: string | null | undefined }) {
  const client = useQueryClient();
  const run = useMutation({
    mutationFn: recomputeFairness,
    onSettled: () => client.invalidateQueries({ queryKey: fairnessKeys.all }),
  });
  const found = run.data?.data;
  return (
    <div className="space-y-2 rounded-xl border border-white/10 bg-dusk/50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-violet-100">
          {computedAt
            ? `Last computed ${new Date(computedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC.`
            : 'The detector runs hourly in the worker.'}
        </p>
        <button type="button" className={primaryButton} disabled={run.isPending} onClick={() => run.mutate()}>
          {run.isPending ? 'Recomputing…' : 'Recompute now'}
        </button>
      </div>
      <p role="status" className="text-sm text-emerald-200 empty:hidden">
        {run.isPending
          ? 'Recomputing the flags over the last 28 days…'
          : found
            ? `Recomputed in ${found.ms} ms over ${plural(found.authors, 'author', 'authors')}: ` +
              `${plural(found.flags.ring, 'ring member', 'ring members')}, ` +
              `${plural(found.flags.referral_chain, 'referral chain', 'referral chains')}, ` +
              `${plural(found.flags.spike, 'spike', 'spikes')}.`
            : ''}
      </p>
      {run.isError ? (
        <p role="alert" className="text-sm text-rose-200">
          The recompute failed: {run.error.message}
        </p>
      ) : null}
    </div>
  );
}
