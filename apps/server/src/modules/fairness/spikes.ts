import { ordinal } from '../../lib/text-order';
/** An author's engagement on one UTC day: what their posts created that day received. */
export type DailyEngagement = { authorId: string; day: string; engagement: number };

export type SpikeThresholds = {
  /** Other active days needed to know an author's normal. */
  minHistoryDays: number;
  /** A day below this is never a spike, however quiet the author usually is. */
  minEngagement: number;
  /** The day is at least this many times the author's median day. */
  minRatio: number;
  /** And this many robust standard deviations (1.4826 × MAD) above the median. */
  minRobustZ: number;
};

export const DEFAULT_SPIKE_THRESHOLDS: SpikeThresholds = {
  minHistoryDays: 5,
  minEngagement: 50,
  minRatio: 8,
  minRobustZ: 10,
};

export type SpikeFinding = {
  memberId: string;
  day: string;
  engagement: number;
  median: number;
  mad: number;
  ratio: number;
  robustZ: number;
  historyDays: number;
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Sudden spikes far above an author's own history: each active day is compared with the author's other active
 * days by median and median absolute deviation (robust to the spike itself, unlike a mean and standard
 * deviation). The scale has a floor (a quarter of the median, at least 1) so a very regular author is not flagged
 * for a merely good day. The author's strongest qualifying day is reported.
 */
export function findSpikes(
  days: readonly DailyEngagement[],
  thresholds: SpikeThresholds = DEFAULT_SPIKE_THRESHOLDS,
): SpikeFinding[] {
  const byAuthor = new Map<string, DailyEngagement[]>();
  for (const d of days) byAuthor.set(d.authorId, [...(byAuthor.get(d.authorId) ?? []), d]);
  const findings: SpikeFinding[] = [];
  for (const [memberId, list] of [...byAuthor].sort((a, b) => ordinal(a[0], b[0]))) {
    if (list.length < thresholds.minHistoryDays + 1) continue;
    let best: SpikeFinding | undefined;
    for (const day of list) {
      if (day.engagement < thresholds.minEngagement) continue;
      const others = list.filter((d) => d !== day).map((d) => d.engagement);
      const m = median(others);
      const mad = median(others.map((x) => Math.abs(x - m)));
      const scale = Math.max(1.4826 * mad, 0.25 * m, 1);
      const robustZ = (day.engagement - m) / scale;
      const ratio = day.engagement / Math.max(m, 1);
      if (ratio < thresholds.minRatio || robustZ < thresholds.minRobustZ) continue;
      if (!best || robustZ > best.robustZ)
        best = {
          memberId,
          day: day.day,
          engagement: day.engagement,
          median: m,
          mad,
          ratio,
          robustZ,
          historyDays: others.length,
        };
    }
    if (best) findings.push(best);
  }
  return findings;
}
