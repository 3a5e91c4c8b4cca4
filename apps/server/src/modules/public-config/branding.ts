import fs from 'node:fs/promises';
import { brandingSchema, type Branding } from '@manaboard/contract';

/** Raised at start-up when the branding file is missing, not JSON, or fails the contract's schema. */
export class BrandingFileError extends Error {
  override name = 'BrandingFileError';
}

/**
 * Reads and validates the operator's branding file (BRANDING_FILE). Every problem is named in the error, so a
 * typo stops the start with a clear message instead of showing a half-branded page.
 */
export async function loadBranding(file: string): Promise<Branding> {
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new BrandingFileError(`Cannot read the branding file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new BrandingFileError(`The branding file ${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = brandingSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new BrandingFileError(`Invalid branding file ${file}:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
