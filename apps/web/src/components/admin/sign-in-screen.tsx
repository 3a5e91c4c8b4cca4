import { useMutation, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { networkWeb } from '../../networks/networks';
import { publicConfigQueryOptions } from '../../lib/public-config';
import { startAdminSignIn } from '../../lib/admin-session';

/**
 * The console's sign-in: through the programme's network (a button, or a handle first where the network needs
 * one). `notice` says why the admin is here again (session ended, sign-in refused); it is announced.
 */
export function SignInScreen({ notice }: { notice: string | null }) {
  const config = useQuery(publicConfigQueryOptions());
  const network = networkWeb(config.data?.data.socialNetwork);
  const start = useMutation({
    mutationFn: (handle?: string) => startAdminSignIn(handle),
    onSuccess: (url) => window.location.assign(url),
  });
  const headingId = useId();
  const HandleForm = network.handleForm;
  return (
    <main
      aria-labelledby={headingId}
      className="flex min-h-screen items-center justify-center bg-night px-4 py-10 text-white"
    >
      <div className="w-full max-w-md space-y-6 rounded-2xl border border-mana/30 bg-dusk/80 p-6 shadow-2xl shadow-mana/20 sm:p-8">
        <div className="space-y-2 text-center">
          <p className="text-sm font-semibold uppercase tracking-widest text-gold">Manaboard</p>
          <h1 id={headingId} className="text-2xl font-black">
            Operator console
          </h1>
          <p className="text-sm text-violet-100/90">
            Sign in with the {network.label} account the programme names as an admin.
          </p>
        </div>
        {config.data?.data.simulated ? (
          <p className="rounded-lg border border-gold/40 bg-gold/10 px-3 py-2 text-center text-sm text-gold">
            Demo: on the simulated sign-in page, type the handle <strong>ManaboardHQ</strong>.
          </p>
        ) : null}
        <p role="status" className="min-h-[1.25rem] text-center text-sm font-semibold text-rose-200">
          {notice}
        </p>
        {config.isPending ? (
          <p className="text-center text-violet-200">Loading…</p>
        ) : HandleForm ? (
          <HandleForm
            purpose="signIn"
            busy={start.isPending}
            error={start.error ? start.error.message : null}
            onSubmit={(handle) => start.mutate(handle)}
            onCancel={() => undefined}
          />
        ) : (
          <div className="space-y-3">
            <button
              type="button"
              onClick={() => start.mutate(undefined)}
              disabled={start.isPending}
              className="w-full rounded-full bg-violet-700 px-5 py-3 font-bold text-white shadow-lg shadow-mana/40 hover:bg-violet-600 disabled:cursor-wait disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
            >
              {start.isPending ? 'Signing in…' : `Sign in with ${network.label}`}
            </button>
            <p role="alert" className="min-h-[1.25rem] text-center text-sm font-semibold text-rose-200">
              {start.error ? start.error.message : null}
            </p>
          </div>
        )}
        <p className="text-center text-xs text-violet-200/80">
          <a
            href="/"
            className="underline underline-offset-4 hover:text-white focus-visible:outline-2 focus-visible:outline-gold"
          >
            Back to the leaderboard
          </a>
        </p>
      </div>
    </main>
  );
}
