import * as z from 'zod/mini';
import type { FairnessFlag } from '@manaboard/contract/admin';

/*
 * The contract carries evidence as an open record (each detector its own figures, docs/fairness.md). These
 * schemas read the figures each detector writes today; evidence of another shape is still shown, as plain pairs.
 */
const member = z.object({ id: z.string(), handle: z.string() });
const ringEvidence = z.object({
  share: z.number(),
  received: z.number(),
  fromCluster: z.number(),
  density: z.number(),
  reciprocity: z.number(),
  cluster: z.array(member),
  topEngagers: z.array(
    z.object({ id: z.string(), handle: z.string(), count: z.number(), inCluster: z.boolean() }),
  ),
  windowDays: z.optional(z.number()),
});
const chainEvidence = z.object({
  depth: z.number(),
  width: z.number(),
  size: z.number(),
  fresh: z.number(),
  freshShare: z.number(),
  freshDays: z.number(),
  members: z.array(
    z.object({
      id: z.string(),
      handle: z.string(),
      depth: z.number(),
      ageDaysAtLink: z.nullable(z.number()),
      fresh: z.boolean(),
    }),
  ),
});
const spikeEvidence = z.object({
  day: z.string(),
  engagement: z.number(),
  median: z.number(),
  ratio: z.number(),
  robustZ: z.number(),
  historyDays: z.number(),
  windowDays: z.optional(z.number()),
});

const pct = (x: number) => `${Math.round(x * 100)}%`;

function Figures({ items }: { items: [string, string | number][] }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
      {items.map(([term, value]) => (
        <div key={term} className="min-w-0">
          <dt className="text-xs uppercase tracking-wide text-violet-200">{term}</dt>
          <dd className="break-words font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const listHeading = 'mt-3 text-xs font-bold uppercase tracking-wide text-violet-100';

function RingEvidence({ e, handle }: { e: z.infer<typeof ringEvidence>; handle: string }) {
  return (
    <>
      <Figures
        items={[
          ['From inside the ring', `${pct(e.share)} (${e.fromCluster} of ${e.received})`],
          ['Ring density', `${pct(e.density)} of pairs both ways`],
          [`@${handle} engages back with`, `${pct(e.reciprocity)} of the ring`],
          ...(e.windowDays ? ([['Window', `last ${e.windowDays} days`]] as [string, string][]) : []),
        ]}
      />
      <h4 className={listHeading}>Ring members ({e.cluster.length})</h4>
      <ul className="flex flex-wrap gap-1 text-sm" aria-label="Ring members">
        {e.cluster.map((m) => (
          <li key={m.id} className="rounded-full bg-white/10 px-2 py-0.5" title={m.id}>
            @{m.handle}
          </li>
        ))}
      </ul>
      <h4 className={listHeading}>Who engaged most with @{handle}</h4>
      <ol className="list-decimal space-y-0.5 pl-5 text-sm" aria-label="Top engagers">
        {e.topEngagers.map((m) => (
          <li key={m.id}>
            @{m.handle}: {m.count} {m.inCluster ? '(in the ring)' : '(outside the ring)'}
          </li>
        ))}
      </ol>
    </>
  );
}

function ChainEvidence({ e }: { e: z.infer<typeof chainEvidence> }) {
  return (
    <>
      <Figures
        items={[
          ['Fresh accounts', `${e.fresh} of ${e.size} (${pct(e.freshShare)})`],
          ['Fresh means', `under ${e.freshDays} days old at linking`],
          ['Depth', `${e.depth} level${e.depth === 1 ? '' : 's'}`],
          ['Widest level', e.width],
        ]}
      />
      <h4 className={listHeading}>The chain</h4>
      <ul className="space-y-0.5 text-sm" aria-label="Accounts in the chain">
        {e.members.map((m) => (
          <li key={m.id} style={{ paddingLeft: `${(m.depth - 1) * 0.75}rem` }}>
            <span aria-hidden="true">↳ </span>@{m.handle}{' '}
            <span className={m.fresh ? 'text-amber-200' : 'text-violet-200'}>
              (level {m.depth},{' '}
              {m.ageDaysAtLink === null ? 'age unknown' : `${m.ageDaysAtLink} days old at linking`}
              {m.fresh ? ', fresh' : ''})
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function SpikeEvidence({ e }: { e: z.infer<typeof spikeEvidence> }) {
  return (
    <Figures
      items={[
        ['Day (UTC)', e.day],
        ['Engagement that day', e.engagement],
        ['Usual day (median)', e.median],
        ['Times the usual', `${e.ratio}×`],
        ['Robust deviations above', e.robustZ],
        ['Other active days', e.historyDays],
      ]}
    />
  );
}

/** A flag's evidence, readably: the figures and the accounts behind the reason. */
export function FlagEvidence({ flag }: { flag: FairnessFlag }) {
  if (flag.kind === 'ring') {
    const e = ringEvidence.safeParse(flag.evidence);
    if (e.success) return <RingEvidence e={e.data} handle={flag.handle} />;
  }
  if (flag.kind === 'referral_chain') {
    const e = chainEvidence.safeParse(flag.evidence);
    if (e.success) return <ChainEvidence e={e.data} />;
  }
  if (flag.kind === 'spike') {
    const e = spikeEvidence.safeParse(flag.evidence);
    if (e.success) return <SpikeEvidence e={e.data} />;
  }
  return (
    <Figures
      items={Object.entries(flag.evidence).map(([key, value]) => [
        key,
        typeof value === 'number' || typeof value === 'string' ? value : JSON.stringify(value),
      ])}
    />
  );
}
