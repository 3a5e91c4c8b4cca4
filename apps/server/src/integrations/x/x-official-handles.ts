import type { OfficialHandleRule } from '../../social/social-network';

/** X's handles: 1–15 letters, digits or _ (X has no domain handles). */
export const X_OFFICIAL_HANDLES: OfficialHandleRule = {
  problem: (handle) =>
    /^[A-Za-z0-9_]{1,15}$/.test(handle)
      ? null
      : `"${handle}" is not an X handle (1–15 letters, digits or _, no domain)`,
};
