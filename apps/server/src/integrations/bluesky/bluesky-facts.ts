import type { JobName } from '../../lib/job-types';
import type { OfficialHandleRule } from '../../social/social-network';

// What the composition roots know of Bluesky on every network: plain values, no npm package. The adapter itself
// (@atproto/*, @atcute/*, ws: about 90 MB resident) is imported only when SOCIAL_NETWORK=bluesky (issue 23).

/**
 * The jobs the worker runs on Bluesky: no polling search and no interactions poll (the event stream brings posts,
 * likes, reposts, replies, quotes and deletions); refresh reconciles counts from getPosts, settle re-checks
 * interactions with official posts (likes, reposts and replies are public), totals and fairness as everywhere,
 * trace reads the records behind counts the refresh raised (issue 30).
 */
export const BLUESKY_JOBS: readonly JobName[] = [
  'refresh',
  'settle',
  'totals',
  'fairness',
  'trace',
  'ledger',
];

/**
 * How long Bluesky's relay keeps events to replay from a cursor. Assumed conservatively (the relay's replay window
 * is a setting of the relay): a stored cursor older than this is reported as a gap.
 */
export const RELAY_REPLAY_MS = 24 * 3_600_000;

/**
 * Bluesky's official handles: a full domain handle (`team.example.com`, an account under its own domain, taken as
 * it is), or a bare name of letters, digits and inner hyphens, which is the account `{name}.bsky.social`.
 */
export const BLUESKY_OFFICIAL_HANDLES: OfficialHandleRule = {
  problem: (handle) =>
    handle.includes('.') || /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(handle)
      ? null
      : `"${handle}" is not a Bluesky handle: a name of letters, digits and hyphens (under bsky.social) or a full domain handle (team.example.com)`,
};
