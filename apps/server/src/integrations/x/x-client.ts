import type { Kysely } from 'kysely';
import type { XConfig } from '../../config/config';
import type { Database } from '../../db/schema';
import { systemClock, type Clock } from './clock';
import { XApi } from './x-api';
import { XBudget } from './x-budget';
import { XHttp, type CallRecord, type XFetch } from './x-http';
import { XLinking } from './x-linking';
import { XOAuth } from './x-oauth';
import { XSocialNetwork } from './x-adapter';

/** Everything the server uses to talk to X (real or simulated: the code is the same). */
export type XClient = {
  mode: XConfig['mode'];
  http: XHttp;
  api: XApi;
  oauth: XOAuth;
  budget: XBudget;
  network: XSocialNetwork;
  /** The identity half of the port (linking). */
  linking: XLinking;
};

/**
 * Builds the X client from configuration. `clock` is the wall clock for real X; the simulation and tests
 * pass the simulated clock so rate-limit waits follow simulated time.
 */
export function createXClient(
  config: XConfig,
  db: Kysely<Database>,
  options: {
    clock?: Clock;
    fetch?: XFetch;
    random?: () => number;
    /** Told of every answered call (the process's metrics). */
    onCall?: (record: CallRecord) => void;
  } = {},
): XClient {
  const clock = options.clock ?? systemClock;
  const budget = new XBudget(db, config.monthlyReadCap, clock.now);
  const http = new XHttp({
    baseUrl: config.apiBaseUrl,
    timeoutMs: config.requestTimeoutMs,
    clock,
    beforeCall: budget.beforeCall,
    afterCall: options.onCall
      ? async (record) => {
          options.onCall?.(record);
          await budget.afterCall(record);
        }
      : budget.afterCall,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.random ? { random: options.random } : {}),
  });
  const api = new XApi(http, config.bearerToken);
  const oauth = new XOAuth(config, clock.now);
  return {
    mode: config.mode,
    http,
    api,
    oauth,
    budget,
    network: new XSocialNetwork(api, config.postUrlBase),
    linking: new XLinking(oauth, api),
  };
}
