import { randomBytes } from 'node:crypto';

/** What the doctor tests on Bluesky (doctor.test.ts) and on X (doctor-x.test.ts) both use. */
export const key = () => randomBytes(32).toString('base64url');
export const problems = (lines: { ok: boolean; text: string }[]) =>
  lines.filter((l) => !l.ok).map((l) => l.text);
