import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are limited to about 107 bytes; a deep data directory gets a hashed name in the temp dir. */
const MAX_SOCKET_PATH = 100;

/** Where a server owning `dataDir` takes operator commands (recorded in its lock, so commands need not guess). */
export function ownerSocketPath(dataDir: string): string {
  const inside = path.join(dataDir, 'owner.sock');
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `manaboard-${hash}.sock`);
}

/** One request per connection, one JSON line each way. */
export type OwnerRequest = { token: string; action: string; input: unknown; actor: string };
export type OwnerResponse = { ok: true; output: string } | { ok: false; error: string };

/** Requests are a few kilobytes (a rules file at most); anything larger is refused unread. */
export const MAX_REQUEST_BYTES = 1_000_000;
