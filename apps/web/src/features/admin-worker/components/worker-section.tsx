import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WorkerJobName } from '@manaboard/contract/admin';
import { ConfirmDialog, type ConfirmRequest } from '../../../components/ui/confirm-dialog';
import { runJobNow, setWorkerPaused, workerKeys, workerStatusQueryOptions } from '../api/worker';
import { at } from './format';
import { JobsView } from './jobs-view';
import { NetworkUsageView } from './network-usage-view';
import { RunRequestsView } from './run-requests-view';

const bigButton =
  'rounded-full px-4 py-1.5 text-sm font-bold disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';

/**
 * Worker and network: whether the worker runs, each job's state, the network's usage, run a job now, pause or
 * resume (confirmed). Asks again every few seconds while open and after each action.
 */
export function WorkerSection() {
  const client = useQueryClient();
  const status = useQuery(workerStatusQueryOptions());
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: workerKeys.status });
  const pause = useMutation({
    mutationFn: setWorkerPaused,
    onSuccess: ({ data }) => setMessage(data.paused ? 'The worker is paused.' : 'The worker resumed.'),
    onError: (error) => setProblem(error.message),
    onSettled: refresh,
  });
  const run = useMutation({
    mutationFn: runJobNow,
    onSuccess: ({ data }) =>
      setMessage(`Asked the worker to run ${data.job} now; it picks it up within seconds.`),
    onError: (error) => setProblem(error.message),
    onSettled: refresh,
  });
  const act = (action: () => void) => {
    setMessage('');
    setProblem('');
    action();
  };
  const paused = status.data?.data.paused ?? false;
  return (
    <section aria-labelledby="worker-heading" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="worker-heading" className="text-2xl font-black">
          Worker and network
        </h1>
        {status.data ? (
          <button
            type="button"
            disabled={pause.isPending}
            className={`${bigButton} ${paused ? 'bg-violet-700 hover:bg-violet-600' : 'bg-rose-700 hover:bg-rose-600'}`}
            onClick={() =>
              setConfirm(
                paused
                  ? {
                      title: 'Resume the worker?',
                      body: 'Scheduled jobs run again from the next tick: searches, refreshes and Mana.',
                      confirmLabel: 'Resume',
                      onConfirm: () => act(() => pause.mutate(false)),
                    }
                  : {
                      title: 'Pause the worker?',
                      body: 'No scheduled job runs until you resume: no new posts are read and Mana stops moving. A run in progress finishes first.',
                      confirmLabel: 'Pause',
                      danger: true,
                      onConfirm: () => act(() => pause.mutate(true)),
                    },
              )
            }
          >
            {pause.isPending ? 'Saving…' : paused ? 'Resume the worker' : 'Pause the worker'}
          </button>
        ) : null}
      </div>
      <p role="status" className="text-sm text-emerald-200 empty:hidden">
        {message}
      </p>
      <p role="alert" className="text-sm text-rose-200 empty:hidden">
        {problem}
      </p>
      {status.isPending ? (
        <p role="status">Loading the worker&apos;s state…</p>
      ) : status.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{status.error.message}</p>
          <button
            type="button"
            className={`${bigButton} border border-white/20 hover:bg-white/10`}
            onClick={() => void status.refetch()}
          >
            Retry
          </button>
        </div>
      ) : (
        <>
          <p
            className={`rounded-lg border px-3 py-2 text-sm ${paused ? 'border-rose-300/50 bg-rose-900/30 text-rose-100' : 'border-emerald-300/40 bg-emerald-900/20 text-emerald-100'}`}
          >
            {paused
              ? `Paused by ${status.data.data.pausedBy ?? 'someone'} at ${at(status.data.data.pausedAt)}. Scheduled jobs do not run.`
              : 'Running: jobs run on their schedule.'}{' '}
            <span className="text-violet-200">Refreshes every few seconds.</span>
          </p>
          <section aria-labelledby="jobs-heading" className="space-y-3">
            <h2 id="jobs-heading" className="text-lg font-bold">
              Jobs
            </h2>
            <JobsView
              jobs={status.data.data.jobs}
              running={run.isPending}
              paused={paused}
              onRun={(job: WorkerJobName) => act(() => run.mutate(job))}
            />
          </section>
          <NetworkUsageView usage={status.data.data.usage} />
          <RunRequestsView requests={status.data.data.runRequests} />
        </>
      )}
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </section>
  );
}
