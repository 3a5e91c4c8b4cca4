import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminRulesResponseSchema,
  adminRulesVersionParamsSchema,
  rulesDiffResponseSchema,
  rulesDraftRequestSchema,
  rulesPreviewResponseSchema,
  rulesSaveResponseSchema,
  rulesVersionsQuerySchema,
  rulesVersionsResponseSchema,
} from '@manaboard/contract/admin';
import { activeRules } from '../../programme/programme.service';
import {
  listRuleVersions,
  previewRules,
  ruleVersionDiff,
  saveRulesDraft,
} from '../../programme/rules-admin.service';
import { adminOf } from '../admin-guard';
import type { AdminSectionOptions } from '../admin-section-options';

/**
 * Section 2, programme rules: the rules in force, their versions and each version's diff, a live preview of a draft
 * (validation per field, changes, the network query with its length against the limit), and a save — a new
 * version through changeRules, as `npm run mana -- rules` stores one; Mana already final is never rewritten.
 */
export const adminRulesRoutes: FastifyPluginAsyncZod<AdminSectionOptions> = async (app, options) => {
  const { db, now, describeQuery, afterManaChange } = options;
  // Official and reserved handles must be ones the configured network can have, as `npm run mana -- rules` checks.
  const handles = options.officialHandles;

  app.get('/rules', { schema: { response: { 200: adminRulesResponseSchema } } }, async () => ({
    success: true as const,
    data: await activeRules(db),
  }));

  app.get(
    '/rules/versions',
    { schema: { querystring: rulesVersionsQuerySchema, response: { 200: rulesVersionsResponseSchema } } },
    async (request) => ({ success: true as const, data: await listRuleVersions(db, request.query) }),
  );

  app.get(
    '/rules/versions/:version/diff',
    { schema: { params: adminRulesVersionParamsSchema, response: { 200: rulesDiffResponseSchema } } },
    async (request) => ({ success: true as const, data: await ruleVersionDiff(db, request.params.version) }),
  );

  app.post(
    '/rules/preview',
    { schema: { body: rulesDraftRequestSchema, response: { 200: rulesPreviewResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await previewRules(db, request.body.rules, { describeQuery, handles }),
    }),
  );

  app.post(
    '/rules',
    { schema: { body: rulesDraftRequestSchema, response: { 200: rulesSaveResponseSchema } } },
    async (request) => {
      const saved = await saveRulesDraft(db, request.body.rules, {
        actor: adminOf(request).actor,
        now: new Date(now()),
        handles,
      });
      if (!saved.unchanged) await afterManaChange();
      return { success: true as const, data: saved };
    },
  );
};
