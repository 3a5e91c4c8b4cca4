import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rememberingQueries } from './query-validation';

async function appCounting() {
  let parses = 0;
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(rememberingQueries(validatorCompiler));
  const querystring = z
    .object({ limit: z.coerce.number().int().min(1).max(100).default(20), search: z.string().optional() })
    .transform((query) => {
      parses += 1;
      return query;
    });
  app.get('/list', { schema: { querystring } }, async (request) => ({
    query: request.query,
    frozen: Object.isFrozen(request.query),
  }));
  app.post(
    '/echo',
    { schema: { body: z.object({ n: z.number() }).transform((b) => (parses++, b)) } },
    (r) => r.body,
  );
  await app.ready();
  return { app, parses: () => parses };
}

describe('remembered query validation', () => {
  it('validates a query once, then answers the same query with the same frozen value', async () => {
    const { app, parses } = await appCounting();
    const first = await app.inject({ url: '/list?limit=5&search=abc' });
    expect(first.json()).toEqual({ query: { limit: 5, search: 'abc' }, frozen: true });
    const again = await app.inject({ url: '/list?limit=5&search=abc' });
    expect(again.json()).toEqual(first.json());
    expect(parses()).toBe(1);
    // Another query is validated: names and values are told apart exactly (no separator can fake another).
    const other = await app.inject({ url: '/list?limit=5&search=abc%26limit%3D6' });
    expect(other.json().query).toEqual({ limit: 5, search: 'abc&limit=6' });
    expect(parses()).toBe(2);
    expect((await app.inject({ url: '/list' })).json().query).toEqual({ limit: 20 });
    expect(parses()).toBe(3);
  });

  it('validates a bad query every time (a 400 each time) and never remembers bodies', async () => {
    const { app, parses } = await appCounting();
    for (let i = 0; i < 2; i++) expect((await app.inject({ url: '/list?limit=0' })).statusCode).toBe(400);
    for (let i = 0; i < 2; i++) {
      const echoed = await app.inject({ method: 'POST', url: '/echo', payload: { n: 1 } });
      expect(echoed.json()).toEqual({ n: 1 });
    }
    expect(parses()).toBe(2);
  });
});
