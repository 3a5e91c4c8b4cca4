import { expect } from 'vitest';
import {
  messageFor,
  referralFailureSchema,
  referralStatsResponseSchema,
  referralStatusResponseSchema,
} from '@manaboard/contract';
import type { TestDatabaseKind } from './test-database';
import { startLinkingTest, type LinkingTest, type newBrowser } from './linking-flow';

type Browser = Awaited<ReturnType<typeof newBrowser>>;

/** The app of the referral tests: two configured reserved names, and room for a 50-way race from one browser. */
export function startReferralsTest(kind: TestDatabaseKind): Promise<LinkingTest> {
  return startLinkingTest(kind, {
    RESERVED_HANDLES: 'Reserved_One,Reserved_Two',
    // The 50-way race comes from one browser.
    RATE_LIMIT_APPLY_PER_MINUTE: '1000',
  });
}

/** The referral calls a test makes as a browser, on the app `test()` gives (set up in the test's beforeAll). */
export function referralCalls(test: () => LinkingTest) {
  const apply = (browser: Browser, referrerHandle: unknown) =>
    test().app.inject({
      method: 'POST',
      url: '/referrals/apply',
      headers: browser.headers,
      payload: { referrerHandle },
    });
  const expectRefused = async (browser: Browser, handle: string, code: string, status = 400) => {
    const response = await apply(browser, handle);
    expect(response.statusCode, response.body).toBe(status);
    const { error } = referralFailureSchema.parse(response.json());
    expect(error.code).toBe(code);
    expect(error.message).toBe(messageFor(code as Parameters<typeof messageFor>[0]));
  };
  const status = async (browser: Browser) =>
    referralStatusResponseSchema.parse(
      (
        await test().app.inject({
          method: 'GET',
          url: '/referrals/status',
          headers: { 'x-user-id': browser.id },
        })
      ).json(),
    ).data;
  const stats = async (browser: Browser) =>
    referralStatsResponseSchema.parse(
      (
        await test().app.inject({
          method: 'GET',
          url: '/referrals/stats',
          headers: { 'x-user-id': browser.id },
        })
      ).json(),
    ).data.refereeCount;
  return { apply, expectRefused, status, stats };
}
