import { Histogram, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestHistogram } from './request-histogram';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const observations: [string, string, number, number][] = [
  ['/api/mana', 'GET', 200, 0.0004],
  ['/api/mana', 'GET', 200, 0.001],
  ['/api/mana', 'GET', 200, 0.05],
  ['/api/mana', 'HEAD', 200, 0.002],
  ['/api/mana/:authorId/breakdown', 'GET', 404, 0.3],
  ['unmatched', 'GET', 404, 7],
];

/** The two registries: prom-client's own Histogram and ours, fed the same requests. */
function both() {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({
    name: 'http_seconds',
    help: 'requests',
    labelNames: ['route', 'method', 'status'],
    buckets: BOUNDS,
    registers: [theirs],
  });
  const requests = new RequestHistogram('http_seconds', 'requests', BOUNDS);
  ours.registerMetric(requests as unknown as Metric);
  for (const [route, method, status, seconds] of observations) {
    histogram.observe({ route, method, status }, seconds);
    requests.observe(route, method, status, seconds);
  }
  return { theirs, ours, requests };
}

describe('RequestHistogram', () => {
  it('writes the same text as prom-client’s Histogram fed the same requests', async () => {
    const { theirs, ours } = both();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('http_seconds_bucket{le="0.01",route="/api/mana",method="GET",status="200"} 2');
    expect(text).toContain('http_seconds_bucket{le="+Inf",route="unmatched",method="GET",status="404"} 1');
    expect(text).toContain('http_seconds_count{route="/api/mana",method="GET",status="200"} 3');
  });

  it('gives the same JSON, and starts over on reset', async () => {
    const { theirs, ours, requests } = both();
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    requests.reset();
    expect(await ours.metrics()).not.toContain('http_seconds_count');
  });
});

describe('RequestHistogram.observer', () => {
  it('counts into the same series as observe, shows none before its first observation, and outlives a reset', async () => {
    const registry = new Registry();
    const requests = new RequestHistogram('http_seconds', 'requests', BOUNDS);
    registry.registerMetric(requests as unknown as Metric);
    const observe = requests.observer('/healthz', 'GET', 200);
    expect(await registry.metrics()).not.toContain('route="/healthz"');
    observe(0.0005);
    requests.observe('/healthz', 'GET', 200, 0.05);
    observe(0.002);
    const text = await registry.metrics();
    expect(text).toContain('http_seconds_count{route="/healthz",method="GET",status="200"} 3');
    expect(text).toContain('http_seconds_bucket{le="0.001",route="/healthz",method="GET",status="200"} 1');
    requests.reset();
    observe(0.0005);
    expect(await registry.metrics()).toContain(
      'http_seconds_count{route="/healthz",method="GET",status="200"} 1',
    );
  });
});
