import { execFileSync } from 'node:child_process';

// Playwright configs run synchronously: a child Node process finds the ports, so the tests never
// take fixed ones and run while `npm start` (or another test run) is up. The scripts' fault
// injection takes its port ranges here too (scripts/support/ports.ts).

/**
 * Binds `count` consecutive ports from a random start on 127.0.0.1 until all are free; prints the
 * first. Taken from 20000-32767, below the ports the system hands out to outgoing connections (Linux
 * from 32768, others from 49152): the demo sites bind them a minute later, after the web build, and
 * an outgoing connection of the run had taken one of them meanwhile (EADDRINUSE in CI).
 */
const FIND_RANGE = `
const net = require('net');
const count = Number(process.argv[1]);
const bind = (port) => new Promise((resolve) => {
  const server = net.createServer();
  server.once('error', () => resolve(null));
  server.listen(port, '127.0.0.1', () => resolve(server));
});
(async () => {
  for (;;) {
    const first = 20000 + Math.floor(Math.random() * (32768 - 20000 - count));
    const servers = [];
    for (let port = first; port < first + count; port++) {
      const server = await bind(port);
      if (!server) break;
      servers.push(server);
    }
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    if (servers.length === count) return process.stdout.write(String(first));
  }
})();
`;

/** The first of `count` consecutive free TCP ports on 127.0.0.1. */
export function freePortRange(count: number): number {
  return Number(execFileSync(process.execPath, ['-e', FIND_RANGE, String(count)]).toString());
}
