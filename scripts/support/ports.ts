// Free TCP ports on 127.0.0.1 for the scripts' tests, benchmarks and fault injection, so they never
// take fixed ones and run while `npm start` (or another run) is up.
import { createServer, type Server } from 'node:net';

function bind(port: number): Promise<Server | null> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const close = (servers: Server[]) =>
  Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));

/** A port the system has just found free. */
export async function freePort(): Promise<number> {
  const server = (await bind(0))!;
  const { port } = server.address() as { port: number };
  await close([server]);
  return port;
}

/**
 * The first of `count` consecutive free ports (a cluster takes a balancer port and one per process):
 * the browser tests' finder, so the range they are drawn from is written once.
 */
export { freePortRange } from '@deposito/web/e2e/support/free-ports';
