import pino from 'pino';
import type { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { postsResponseSchema } from '@manaboard/contract';
import type { SocialNetwork } from '../social/social-network';
import { startManaHarness, type ManaHarness } from '../test/mana-harness';
import { testDatabaseKinds } from '../test/test-database';
import { busyWorld, snapshot } from '../test/busy-world';
import { Worker } from './worker';
import { allStates } from '../modules/mana/ingest-state.repository';

const HOUR = 3_600_000;

/** The port with a crash on chosen calls (the process dying mid-run); everything else is the simulated X. */
function crashing(
  network: SocialNetwork,
  plan: { findPosts: number[]; readMetrics: number[] },
): SocialNetwork {
  let searches = 0;
  let lookups = 0;
  return new Proxy(network, {
    get(target, property, receiver) {
      if (property === 'findPosts') {
        return (...args: Parameters<SocialNetwork['findPosts']>) => {
          if (plan.findPosts.includes(++searches)) throw new Error('crash during search');
          return target.findPosts(...args);
        };
      }
      if (property === 'readMetrics') {
        return (...args: Parameters<SocialNetwork['readMetrics']>) => {
          if (plan.readMetrics.includes(++lookups)) throw new Error('crash during refresh');
          return target.readMetrics(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(testDatabaseKinds())('worker resilience (%s)', (kind) => {
  const open: ManaHarness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });

  it('a crash between batches, then a rerun, equals an uninterrupted run', async () => {
    // One database at a time (two PostgreSQL test schemas open at once confuse Kysely's migrator).
    const steady = await startManaHarness(kind, busyWorld());
    await steady.worker.runCycle();
    const uninterrupted = await snapshot(steady);
    await steady.close();
    expect(uninterrupted.total).toBe(40);

    const crashed = await startManaHarness(kind, busyWorld(), {
      wrapNetwork: (network) => crashing(network, { findPosts: [2], readMetrics: [2] }),
    });
    open.push(crashed);
    await crashed.worker.runCycle(); // search stops after page 1; the next cycle's first refresh batch fails
    const partial = await snapshot(crashed);
    expect(partial.posts.length).toBeGreaterThan(0);
    expect(partial.total).toBeLessThan(40);
    // The operator sees the failure; the cursor holds what committed: page 1 of the search run (its since_id
    // not yet moved).
    const failed = new Map((await allStates(crashed.database.db)).map((s) => [s.job, s]));
    expect(failed.get('search')?.last_error).toBe('crash during search');
    const searchCursor = failed.get('search')?.cursor as { sinceId?: string; run?: { nextCursor: string } };
    expect(searchCursor.sinceId).toBeUndefined();
    expect(searchCursor.run?.nextCursor).toEqual(expect.any(String));

    await crashed.worker.runCycle();
    expect(await snapshot(crashed)).toEqual(uninterrupted);
    const resumed = new Map((await allStates(crashed.database.db)).map((s) => [s.job, s]));
    const search = resumed.get('search');
    expect(search?.last_success_at?.getTime()).toBeGreaterThanOrEqual(
      search?.last_error_at?.getTime() ?? Infinity,
    );
    expect((search?.cursor as { sinceId?: string; run?: unknown }).run).toBeUndefined();
    expect((search?.cursor as { sinceId?: string }).sinceId).toEqual(expect.any(String));
  });

  it('a crash between refresh batches resumes after the last committed batch and ends as an uninterrupted run', async () => {
    const engage = (world: World) => {
      for (const post of world.postsByTime()) world.addOrganic(post.id, { likes: 2, quotes: 1 });
      world.advance(HOUR);
    };
    const steadyWorld = busyWorld();
    const steady = await startManaHarness(kind, steadyWorld);
    await steady.worker.runCycle();
    engage(steadyWorld);
    await steady.worker.runCycle();
    await steady.worker.runCycle();
    const uninterrupted = await snapshot(steady);
    await steady.close();

    const world = busyWorld();
    const asked: string[][] = [];
    const h = await startManaHarness(kind, world, {
      wrapNetwork: (network) => {
        const broken = crashing(network, { findPosts: [], readMetrics: [4] });
        return new Proxy(broken, {
          get(target, property, receiver) {
            if (property !== 'readMetrics') return Reflect.get(target, property, receiver) as unknown;
            return (ids: readonly string[]) => {
              asked.push([...ids]);
              return target.readMetrics(ids);
            };
          },
        });
      },
    });
    open.push(h);
    await h.worker.runCycle(); // refresh: batch of 100, batch of 60
    engage(world);
    await h.worker.runCycle(); // refresh: batch 1 commits, batch 2 crashes
    const state = (await allStates(h.database.db)).find((s) => s.job === 'refresh');
    expect(state?.last_error).toBe('crash during refresh');
    const firstBatch = asked[2] ?? [];
    expect(firstBatch).toHaveLength(100);
    expect((state?.cursor as { after?: { id: string } }).after?.id).toBe(firstBatch[firstBatch.length - 1]);
    await h.worker.runCycle(); // resumes with the 60 posts after the stored position, then a new pass
    expect(asked[4]).toEqual(asked[1]);
    await h.worker.runCycle();
    expect(await snapshot(h)).toEqual(uninterrupted);
  });

  it('the same X pages read twice (cursors lost, a replay) count once', async () => {
    const h = await startManaHarness(kind, busyWorld());
    open.push(h);
    await h.worker.runCycle();
    const once = await snapshot(h);
    await h.database.db
      .updateTable('ingest_state')
      .set({ cursor: JSON.stringify({}) })
      .execute();
    const replay = await h.worker.runJob('search');
    expect(replay?.counts).toMatchObject({ seen: 160, tracked: 160 });
    await h.worker.runCycle();
    await h.worker.runCycle();
    expect(await snapshot(h)).toEqual(once);
  });

  it('after an outage longer than the search reach it starts over from the last 7 days instead of failing', async () => {
    const world = busyWorld();
    const h = await startManaHarness(kind, world);
    open.push(h);
    await h.worker.runCycle();
    world.advance(9 * 24 * HOUR);
    const late = world.createPost(
      world.userByUsername('member_1')?.id ?? '',
      'back with #ManaBoard',
      world.now() - 1,
    );
    world.addOrganic(late.id, { likes: 1 });
    await h.worker.runCycle();
    const states = await allStates(h.database.db);
    expect(states.filter((s) => s.last_error !== null).map((s) => [s.job, s.last_error])).toEqual([]);
    const posts = postsResponseSchema.parse((await h.get('/api/posts?search=back%20with')).body).data;
    expect(posts.map((p) => p.id)).toEqual([late.id]);
  });

  it('two workers running the same cycles at once count everything once', async () => {
    const steady = await startManaHarness(kind, busyWorld());
    await steady.worker.runCycle();
    const once = await snapshot(steady);
    await steady.close();

    const h = await startManaHarness(kind, busyWorld());
    open.push(h);
    const log = pino({ level: 'silent' });
    const clock = { now: () => Date.parse('2026-11-18T12:00:00Z'), sleep: async () => undefined };
    const other = new Worker({ db: h.database.db, network: h.network, clock, log }, { databaseKind: kind });
    await Promise.all([h.worker.runCycle(), other.runCycle()]);
    // A job that lost a race (a serialisation failure, a deadlock) is recorded and simply runs again.
    await h.worker.runCycle();
    expect(await snapshot(h)).toEqual(once);
  });
});
