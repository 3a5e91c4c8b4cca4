import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Database } from '../db/schema';
import { rebuildAllTotals } from '../modules/mana/totals.service';
import { readRulesFile } from '../modules/programme/programme.service';
import { ledgerWeek, type LedgerWeek } from '../modules/ledger/ledger-week';

/**
 * Random worlds for the weekly ledger's tests: members (some linked, one perhaps disqualified), their posts of one
 * week with records behind some of each count, referrals and credited interactions, and two rules versions (the
 * second stored mid-week, with other weights and rewards). Inserted row by row as the ingest would leave them;
 * then the engine's own rebuild scores every post (posts already final keep version 1's Mana), so the ledger is
 * checked against what the engine computed, never against numbers the test made up.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The week the worlds live in: a few weeks back, so it is closeable and the rules' dates fall inside it. */
export const WORLD_WEEK: LedgerWeek = ledgerWeek('2026-W40');
const kinds = ['like', 'quote', 'reply', 'repost'] as const;
const metricOf = { like: 'likes', quote: 'quotes', reply: 'replies', repost: 'reposts' } as const;

const member = fc.record({
  linked: fc.boolean(),
  /** Hours into the week the member linked (their posts after it earn the multiplier). */
  linkedAtHour: fc.integer({ min: -48, max: 160 }),
  disqualified: fc.boolean(),
  posts: fc.array(
    fc.record({
      hour: fc.integer({ min: 0, max: 167 }),
      minute: fc.integer({ min: 0, max: 59 }),
      metrics: fc.record({
        like: fc.integer({ min: 0, max: 6 }),
        quote: fc.integer({ min: 0, max: 3 }),
        reply: fc.integer({ min: 0, max: 4 }),
        repost: fc.integer({ min: 0, max: 4 }),
      }),
      /** How many of each count have a record (the rest are not traceable). */
      traced: fc.double({ min: 0, max: 1, noNaN: true }),
      status: fc.constantFrom<'live' | 'deleted' | 'protected'>(
        'live',
        'live',
        'live',
        'deleted',
        'protected',
      ),
      finalEarly: fc.boolean(),
      voidRecords: fc.integer({ min: 0, max: 2 }),
    }),
    { maxLength: 9 },
  ),
  referrals: fc.array(fc.record({ hour: fc.integer({ min: 0, max: 167 }), counts: fc.boolean() }), {
    maxLength: 2,
  }),
  interactions: fc.array(
    fc.record({
      hour: fc.integer({ min: 0, max: 167 }),
      kind: fc.constantFrom('like' as const, 'reply' as const, 'repost' as const),
    }),
    { maxLength: 3 },
  ),
});

export const ledgerWorld = fc.record({
  members: fc.array(member, { minLength: 1, maxLength: 6 }),
  /** Hour of the week when rules version 2 was stored. */
  rulesV2Hour: fc.integer({ min: 0, max: 167 }),
  weightsV2: fc.record({
    like: fc.integer({ min: 0, max: 4 }),
    reply: fc.integer({ min: 0, max: 4 }),
    repost: fc.integer({ min: 0, max: 4 }),
    quote: fc.integer({ min: 0, max: 5 }),
  }),
  referralRewardV2: fc.integer({ min: 10, max: 90 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});
export type LedgerWorld = typeof ledgerWorld extends fc.Arbitrary<infer T> ? T : never;

/** Random-looking but repeatable text (record keys and CIDs) from a number: base 32 of its SHA-256. */
function token(n: number, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const digest = createHash('sha256').update(String(n)).digest();
  let out = '';
  for (let i = 0; out.length < length; i++) out += alphabet[(digest[i % 32] ?? 0) % 32];
  return out;
}

const at = (hour: number, minute = 0) => new Date(WORLD_WEEK.from.getTime() + hour * HOUR + minute * 60_000);

/** Inserts a world; returns the rules of both versions. */
export async function insertLedgerWorld(db: Kysely<Database>, world: LedgerWorld) {
  const v1 = await readRulesFile();
  const v2: ProgrammeRules = {
    ...v1,
    weights: world.weightsV2,
    referralReward: world.referralRewardV2,
    interactionRewards: { like: 2, reply: 4, repost: 3 },
  };
  const v2At = at(world.rulesV2Hour);
  await db
    .insertInto('programme_rules')
    .values([
      {
        version: 1,
        rules: JSON.stringify(v1),
        source: 'test',
        created_at: new Date(WORLD_WEEK.from.getTime() - 30 * DAY),
      },
      { version: 2, rules: JSON.stringify(v2), source: 'test', created_at: v2At },
    ])
    .execute();
  const rulesAt = (t: Date) => (t < v2At ? v1 : v2);
  let n = world.seed;
  const did = (i: number) => `did:plc:${token(world.seed + i, 24)}`;
  for (const [i, m] of world.members.entries()) {
    const author = did(i);
    const linkedAt = at(m.linkedAtHour);
    await db
      .insertInto('authors')
      .values({
        id: author,
        handle: `m${i}.test`,
        display_name: `Member ${i}`,
        avatar_url: null,
        first_tracked_at: at(i),
        disqualified: m.disqualified && i > 0,
        updated_at: at(0),
      })
      .execute();
    const account = await db
      .insertInto('accounts')
      .values({
        network_user_id: author,
        handle: `m${i}.test`,
        avatar_url: null,
        network_created_at: null,
        followers: 10,
        access_token: null,
        refresh_token: null,
        token_expires_at: null,
        scopes: '',
        linked_at: linkedAt,
        updated_at: linkedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (m.linked)
      await db
        .insertInto('browser_links')
        .values({ browser_hash: `b${world.seed}-${i}`, account_id: account.id, linked_at: linkedAt })
        .execute();
    for (const [j, p] of m.posts.entries()) {
      const id = `at://${author}/app.bsky.feed.post/${token(n++, 13)}`;
      const created = at(p.hour, p.minute);
      await db
        .insertInto('posts')
        .values({
          id,
          author_id: author,
          text: `post ${j}`,
          created_at: created,
          kind: 'original',
          likes: p.metrics.like,
          replies: p.metrics.reply,
          reposts: p.metrics.repost,
          quotes: p.metrics.quote,
          status: p.status,
          final: p.finalEarly,
          first_seen_at: created,
          refreshed_at: created,
        })
        .execute();
      const record = (kind: (typeof kinds)[number], state: 'counted' | 'void') => {
        const by = did(100 + (n % 7));
        const collection = kind === 'reply' || kind === 'quote' ? 'post' : kind;
        return {
          id: `at://${by}/app.bsky.feed.${collection}/${token(n++, 13)}`,
          kind,
          subject_id: id,
          author_id: by,
          created_at: new Date(created.getTime() + (n % 50) * 60_000),
          cid: `bafyrei${token(n++, 52)}`,
          state,
        };
      };
      const records = kinds.flatMap((kind) =>
        Array.from({ length: Math.floor(p.metrics[kind] * p.traced) }, () => record(kind, 'counted')),
      );
      // Records that no longer count (deleted, self-engagement): kept, never written in the ledger.
      for (let v = 0; v < p.voidRecords; v++) records.push(record('like', 'void'));
      if (records.length > 0) await db.insertInto('stream_records').values(records).execute();
    }
    for (const [j, r] of m.referrals.entries()) {
      const referee = await db
        .insertInto('accounts')
        .values({
          network_user_id: did(300 + i * 10 + j),
          handle: `ref${i}-${j}.test`,
          avatar_url: null,
          network_created_at: null,
          followers: 10,
          access_token: null,
          refresh_token: null,
          token_expires_at: null,
          scopes: '',
          linked_at: at(r.hour),
          updated_at: at(r.hour),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A referee who unlinked again gives nothing (the referral module's countingReferrals).
      if (r.counts)
        await db
          .insertInto('browser_links')
          .values({ browser_hash: `r${world.seed}-${i}-${j}`, account_id: referee.id, linked_at: at(r.hour) })
          .execute();
      await db
        .insertInto('referrals')
        .values({
          referee_account_id: referee.id,
          referrer_account_id: account.id,
          reward_mana: rulesAt(at(r.hour)).referralReward,
          status: 'credited',
          created_at: at(r.hour),
        })
        .execute();
    }
    for (const [j, x] of m.interactions.entries()) {
      const settled = at(x.hour, j);
      await db
        .insertInto('interactions')
        .values({
          member_id: author,
          post_id: `at://did:plc:official/app.bsky.feed.post/${token(j, 13)}`,
          kind: x.kind,
          status: 'credited',
          reward: rulesAt(settled).interactionRewards[x.kind],
          detected_at: new Date(settled.getTime() - DAY),
          check_after: settled,
          settle_by: settled,
          settled_at: settled,
          note: null,
          record_id: `at://${author}/app.bsky.feed.${x.kind === 'reply' ? 'post' : x.kind}/${token(n++, 13)}`,
          record_cid: `bafyrei${token(n++, 52)}`,
        })
        .execute();
    }
  }
  // The engine scores: version 1 first (posts already final keep it), then version 2 for the rest.
  const end = new Date(WORLD_WEEK.to.getTime() + 30 * DAY);
  await rebuildAllTotals(db, { version: 1, rules: v1 }, end);
  await rebuildAllTotals(db, { version: 2, rules: v2 }, end);
  return { v1, v2, metricOf };
}
