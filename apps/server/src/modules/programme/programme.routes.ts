import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { ProgrammeResponse } from '@manaboard/contract';
import type { Database } from '../../db/schema';
import { activeRules } from './programme.service';

/** How long this process reuses the answer: rules change rarely, and a new version shows within a minute. */
const RULES_CACHE_MS = 60_000;

/** `GET /api/programme`: the public numbers of the programme rules in force (the web's "how to earn"). */
export const programmeRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  let cached: { body: ProgrammeResponse; at: number } | undefined;
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
