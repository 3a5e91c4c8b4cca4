import {
  applySettlements,
  dueInteractions,
  membersSharingLikes,
  type Settlement,
} from '../modules/mana/interactions.service';
import type { Job } from './job';
import { engagementOf } from './interactions.job';
import { likedAmong } from './member-likes';

/** Lines settled per run at most (the rest wait for the next run, well within the settle window). */
const SETTLE_BATCH = 500;

/**
 * settle: pending interactions whose re-check is due (no earlier than `settleAfterHours` after detection) are
 * checked again (likes with the member's own token): still there → credited, gone → void. A line that cannot be
 * confirmed by its `settle_by` (no token, or a network outage) is voided then, never left open.
 */
export const settleJob: Job = {
  name: 'settle',
  async run(context) {
    const { db, network, clock } = context;
    const now = new Date(clock.now());
    const due = await dueInteractions(db, now, SETTLE_BATCH);
    const byPost = new Map<string, typeof due>();
    for (const line of due) {
      const list = byPost.get(line.post_id);
      if (list) list.push(line);
      else byPost.set(line.post_id, [line]);
    }
    const settlements: Settlement[] = [];
    const deleted: string[] = [];
    const likes: typeof due = [];
    let calls = 0;
    for (const [postId, lines] of byPost) {
      // Likes are checked with the post's other engagement where they are public, else with members' tokens.
      const publicLikes = network.likersOf !== undefined;
      const checkable = lines.filter((l) => publicLikes || l.kind !== 'like');
      let present: Set<string> | undefined;
      if (checkable.length > 0) {
        try {
          const lookup = await network.readMetrics([postId]);
          calls++;
          if (lookup.missing.some((m) => m.reason !== 'other')) deleted.push(postId);
          const { found, calls: spent } = await engagementOf(network, postId);
          calls += spent;
          present = new Set(found.map((f) => `${f.memberId}|${f.kind}`));
        } catch {
          present = undefined; // the network failed: leave the lines for the next run, unless overdue
        }
      }
      for (const line of lines) {
        const overdue = now >= line.settle_by;
        if (deleted.includes(postId)) {
          settlements.push({ line, status: 'void', note: 'the official post is gone' });
        } else if (line.kind === 'like' && !publicLikes) {
          likes.push(line);
        } else if (present) {
          const there = present.has(`${line.member_id}|${line.kind}`);
          settlements.push({
            line,
            status: there ? 'credited' : 'void',
            note: there ? null : 'undone before the re-check',
          });
        } else if (overdue) {
          settlements.push({ line, status: 'void', note: 'not confirmed within the settle window' });
        }
      }
    }
    // Likes, member by member, with the member's own token; unreadable ones wait until overdue.
    const sharing = new Map((await membersSharingLikes(db)).map((m) => [m.networkUserId, m]));
    const likesByMember = new Map<string, typeof likes>();
    for (const line of likes)
      likesByMember.set(line.member_id, [...(likesByMember.get(line.member_id) ?? []), line]);
    for (const [memberId, lines] of likesByMember) {
      const member = sharing.get(memberId);
      const result = member
        ? await likedAmong({ ...context, network }, member, new Set(lines.map((l) => l.post_id)))
        : undefined;
      calls += result?.calls ?? 0;
      for (const line of lines) {
        if (result) {
          const there = result.liked.has(line.post_id);
          settlements.push({
            line,
            status: there ? 'credited' : 'void',
            note: there ? null : 'undone before the re-check',
          });
        } else if (now >= line.settle_by) {
          settlements.push({ line, status: 'void', note: 'not confirmed within the settle window' });
        }
      }
    }
    await applySettlements(db, settlements, deleted, now);
    return {
      calls,
      counts: {
        due: due.length,
        credited: settlements.filter((s) => s.status === 'credited').length,
        voided: settlements.filter((s) => s.status === 'void').length,
      },
    };
  },
};
