import { describe, expect, it } from 'vitest';
import { pooledCryptoRandom } from './booking.service';

describe('pooledCryptoRandom', () => {
  it('hands out the sizes asked, never the same bytes twice, across refills of its pool', () => {
    const random = pooledCryptoRandom();
    const seen = new Set<string>();
    // 16-byte draws over several 4 KB pools: a repeat would mean a pool handed out twice.
    for (let i = 0; i < 2_000; i += 1) {
      const bytes = random.bytes(16);
      expect(bytes).toHaveLength(16);
      seen.add(Buffer.from(bytes).toString('hex'));
    }
    expect(seen.size).toBe(2_000);
  });

  it('answers copies, so a caller changing its bytes changes nobody else’s', () => {
    const random = pooledCryptoRandom();
    const first = random.bytes(8);
    first.fill(0);
    const second = random.bytes(8);
    expect(Buffer.from(second).equals(Buffer.alloc(8))).toBe(false);
  });

  it('serves a request larger than its pool directly', () => {
    expect(pooledCryptoRandom().bytes(10_000)).toHaveLength(10_000);
  });

  it('serves mixed sizes across the pool boundary', () => {
    const random = pooledCryptoRandom();
    let total = 0;
    for (const size of [7, 4000, 300, 1, 4096, 5]) {
      expect(random.bytes(size)).toHaveLength(size);
      total += size;
    }
    expect(total).toBeGreaterThan(4096);
  });
});
