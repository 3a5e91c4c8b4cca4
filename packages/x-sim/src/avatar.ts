import type { SimUser } from './world-types';

/** A tiny generated avatar (initial on a colour from the id), served by the simulation: no third-party host. */
export function avatarSvg(user: SimUser): string {
  let hash = 0;
  for (const ch of user.id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const letter = (user.username[0] ?? '?').toUpperCase().replace(/[^A-Z0-9_]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="24" fill="hsl(${hue} 60% 45%)"/><text x="24" y="31" font-family="sans-serif" font-size="22" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
}
