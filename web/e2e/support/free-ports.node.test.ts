import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePortRange } from './free-ports';

describe('freePortRange', () => {
  it('finds consecutive free ports below those the system gives outgoing connections', async () => {
    for (let run = 0; run < 5; run += 1) {
      const first = freePortRange(6);
      expect(first).toBeGreaterThanOrEqual(20_000);
      // Linux hands out 32768 and up to outgoing connections (49152 and up elsewhere).
      expect(first + 5).toBeLessThan(32_768);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(first + 5, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
