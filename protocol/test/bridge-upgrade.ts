// For tests of the cloud's `/bridge` WebSocket upgrade, in the cloud's tests and the web's e2e specs
// alike. Protocol has no WebSocket client of its own: the caller opens the socket (`ws`'s client).

/** The answer to a refused upgrade, as `ws` hands it over. */
interface RefusedUpgrade {
  statusCode?: number;
  resume(): unknown;
}

/** What `upgradeStatus` needs of a just-created `ws` client socket. */
export interface UpgradingSocket {
  once(event: 'unexpected-response', listener: (request: unknown, response: RefusedUpgrade) => void): unknown;
  once(event: 'open', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  close(): void;
  terminate(): void;
}

/** The HTTP status the upgrade of `socket` was answered with, or 101 when it opened; closed either way. */
export function upgradeStatus(socket: UpgradingSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      resolve(response.statusCode ?? 0);
    });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}
