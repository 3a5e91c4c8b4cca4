import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { firstAnswer } from './first-answer';

describe('waiting for the first answer', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function listening(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
    const created = http.createServer(handler);
    await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
    server = created;
    return { server: created, url: `http://127.0.0.1:${(created.address() as AddressInfo).port}/` };
  }

  it('resolves when the first answer is sent, not when its request arrives', async () => {
    let answer: () => void = () => undefined;
    const { server, url } = await listening((_request, response) => {
      answer = () => response.end('ok');
    });
    let resolvedAt = 0;
    const waited = firstAnswer(server, 60_000).then(() => (resolvedAt = performance.now()));
    const reply = fetch(url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resolvedAt).toBe(0);
    const answeredAt = performance.now();
    answer();
    await waited;
    expect(resolvedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(await (await reply).text()).toBe('ok');
    // Its listener went with the first request.
    expect(server.listenerCount('request')).toBe(1);
  });

  it('resolves after the longest wait when nobody asks', async () => {
    const { server } = await listening((_request, response) => response.end());
    const started = performance.now();
    await firstAnswer(server, 150);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(server.listenerCount('request')).toBe(1);
  });
});
