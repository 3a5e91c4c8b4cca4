import * as CID from '@atcute/cid';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cidText } from './bluesky-commit';

describe("a CID's text", () => {
  it("is @atcute's, written out as one string, for any content of either codec", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0x55, 0x71),
        fc.uint8Array({ maxLength: 200 }),
        async (codec, data) => {
          const cid = await CID.create(codec, data);
          expect(cidText(cid.bytes)).toBe(CID.toString(cid));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('is undefined for bytes that are no CID', () => {
    expect(cidText(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});
