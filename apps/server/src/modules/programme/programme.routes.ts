import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { ProgrammeResponse } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import { activeRules } from './programme.service';

/** How long this process reuses the answer: rules change rarely, and a new version shows within a minute. */
const RULES_CACHE_MS = 60_000;

/** This process's copy of the public rules; dropped when an operator saves new rules here. */
export type ProgrammeCache = { invalidate(): void };

/**
 * `GET /api/programme`: the public numbers of the programme rules in force (the web's "how to earn").
 * `onCache` hands out the process's copy, so a save through the console shows at once on this process.
 */
export const programmeRoutes: FastifyPluginAsync<{
  db: Kysely<Database>;
  onCache?: (cache: ProgrammeCache) => void;
}> = async (app, { db, onCache }) => {
  let cached: { body: ProgrammeResponse; at: number } | undefined;
  onCache?.({ invalidate: () => (cached = undefined) });
  app.get('/api/programme', async (_request, reply) => {
    if (!cached || Date.now() - cached.at > RULES_CACHE_MS) {
      const { version, rules } = await activeRules(db);
      // Only what members may see: the anti-bot gate (minAccountAgeDays, minFollowers) stays private.
      const body: ProgrammeResponse = {
        success: true,
        data: {
          version,
          keywords: rules.keywords,
          hashtags: rules.hashtags,
          officialHandles: rules.officialHandles,
          weights: rules.weights,
          linkedMultiplier: rules.linkedMultiplier,
          dailyLimit: rules.dailyLimit,
          refreshWindowDays: rules.refreshWindowDays,
          referralReward: rules.referralReward,
          interactionRewards: rules.interactionRewards,
          settleAfterHours: rules.settleAfterHours,
          settleByHours: rules.settleByHours,
        },
      };
      cached = { body, at: Date.now() };
    }
    return reply.header('Cache-Control', 'public, max-age=60').send(cached.body);
  });
};
