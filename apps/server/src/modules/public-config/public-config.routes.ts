import type { FastifyPluginAsync } from 'fastify';
import type { BrandingResponse, PublicConfigResponse, SocialNetworkName } from '@manaboard/contract';
import { paths } from '../../config/config';
import { loadBranding } from './branding';

export type PublicConfigOptions = {
  /** The network this deployment runs on (the web takes its name, start path and post display from it). */
  socialNetwork: SocialNetworkName;
  simulated: boolean;
  /** The branding JSON (config.brandingFile); default: the shipped Manaboard demo branding. */
  brandingFile?: string;
};

const defaultBrandingFile = `${paths.repoRoot}/apps/server/content/branding.json`;

/**
 * `GET /api/public/config` and `GET /api/public/branding`: the deployment facts and the programme's branding
 * the web app reads at run time (an operator rebrands by editing a file and restarting, never by rebuilding).
 */
export const publicConfigRoutes: FastifyPluginAsync<PublicConfigOptions> = async (app, options) => {
  const body: PublicConfigResponse = {
    success: true,
    data: { socialNetwork: options.socialNetwork, simulated: options.simulated },
  };
  const branding: BrandingResponse = {
    success: true,
    data: await loadBranding(options.brandingFile ?? defaultBrandingFile),
  };
  app.get('/api/public/config', async (_request, reply) => {
    return reply.header('Cache-Control', 'public, max-age=300').send(body);
  });
  app.get('/api/public/branding', async (_request, reply) => {
    return reply.header('Cache-Control', 'public, max-age=300').send(branding);
  });
};
