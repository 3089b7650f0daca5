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
 * The first of `count` consecutive free ports (a cluster takes a balancer port and one per process),
 * from 20000-32767: below the ports the system hands out to outgoing connections (Linux from 32768,
 * others from 49152), so none of those takes one between this check and the bind.
 */
export async function freePortRange(count: number): Promise<number> {
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * (32_768 - 20_000 - count));
    const servers: Server[] = [];
    for (let port = first; port < first + count; port++) {
      const server = await bind(port);
      if (!server) break;
      servers.push(server);
    }
    await close(servers);
    if (servers.length === count) return first;
  }
}
