import net from 'node:net';
import type { OwnerRecord } from '../db/owner-lock';
import type { OperatorActionName } from './operator-actions';
import type { OwnerRequest, OwnerResponse } from './owner-socket';

/**
 * Sends one operator action to the server that owns the embedded database and returns its answer. Success is
 * only ever what the owner said after running the action; a lost connection is a failure that says so.
 */
export function askOwner(
  owner: OwnerRecord,
  dataDir: string,
  request: { action: OperatorActionName; input: unknown; actor: string },
): Promise<OwnerResponse> {
  const notReachable = `The Manaboard server (pid ${owner.pid}) holds the embedded database in ${dataDir} but takes no commands yet (still starting?); try again in a moment.`;
  if (!owner.socket) return Promise.reject(new Error(notReachable));
  const socket = owner.socket;
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(socket);
    let received = '';
    let connected = false;
    connection.setEncoding('utf8');
    connection.on('connect', () => {
      connected = true;
      const message: OwnerRequest = { token: owner.token, ...request };
      connection.write(`${JSON.stringify(message)}\n`);
    });
    connection.on('data', (chunk: string) => (received += chunk));
    connection.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) reject(new Error(notReachable));
      else reject(new Error(`Lost the connection to the server (${error.code ?? error.message}).`));
    });
    connection.on('close', () => {
      const line = received.split('\n')[0] ?? '';
      try {
        resolve(JSON.parse(line) as OwnerResponse);
      } catch {
        if (connected) {
          reject(
            new Error(
              'The server closed the connection without an answer: the command may or may not have taken effect; check before running it again.',
            ),
          );
        }
      }
    });
  });
}
