import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  it('keeps a load until the write version moves, then loads again', async () => {
    let version = 0;
    let loads = 0;
    const cache = new ReadCache<number>(60_000, () => version);
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    version += 1;
    expect(await cache.get('k', load)).toBe(2);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not keep a load past a write that ends while it runs', async () => {
    let version = 0;
    let loads = 0;
    const cache = new ReadCache<number>(60_000, () => version);
    expect(
      await cache.get('k', async () => {
        version += 1;
        return ++loads;
      }),
    ).toBe(1);
    expect(await cache.get('k', async () => ++loads)).toBe(2);
  });
});
