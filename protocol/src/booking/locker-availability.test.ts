import { describe, expect, it } from 'vitest';
import {
  freeLockers,
  peakOccupation,
  sellableLockerCount,
  sellableLockers,
  type LockerUnit,
} from './locker-availability';

const at = (hour: number) => new Date(Date.UTC(2026, 3, 1, hour));
const window = (from: number, to: number) => ({ startAt: at(from), endAt: at(to) });
const lockers: LockerUnit[] = [3, 1, 2, 4].map((n) => ({
  id: n * 10,
  number: n,
  size: 'standard',
  inService: n !== 4,
}));

describe('locker availability rule', () => {
  it('frees a locker whose reservation ends when the window starts (half-open ranges)', () => {
    const occupations = [{ lockerId: 10, ...window(8, 10) }];
    expect(freeLockers(lockers, occupations, window(10, 12)).map((l) => l.number)).toEqual([1, 2, 3]);
    expect(freeLockers(lockers, occupations, window(9, 12)).map((l) => l.number)).toEqual([2, 3]);
  });

  it('never offers a locker out of service', () => {
    expect(freeLockers(lockers, [], window(9, 12)).map((l) => l.number)).not.toContain(4);
  });

  it('measures the most reservations in force at one instant of the window', () => {
    const occupations = [
      { lockerId: 10, ...window(8, 10) },
      { lockerId: 20, ...window(10, 12) },
      { lockerId: 30, ...window(9, 11) },
    ];
    expect(peakOccupation(occupations, window(8, 12))).toBe(2);
    expect(peakOccupation(occupations, window(11, 12))).toBe(1);
    expect(peakOccupation(occupations, window(12, 13))).toBe(0);
  });

  it('sells no more than maxOnline minus the peak', () => {
    const occupations = [{ lockerId: 10, ...window(8, 10) }];
    expect(
      sellableLockers({ lockers, occupations, window: window(9, 12), maxOnline: 2 }).map((l) => l.number),
    ).toEqual([2]);
    expect(sellableLockers({ lockers, occupations, window: window(9, 12), maxOnline: 1 })).toEqual([]);
    expect(sellableLockers({ lockers, occupations, window: window(9, 12), maxOnline: 9 })).toHaveLength(2);
  });
});

describe('sellableLockerCount', () => {
  it('counts what sellableLockers returns, over many lockers, occupations and windows', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    const hour = 3600_000;
    for (let round = 0; round < 300; round += 1) {
      const lockers = Array.from({ length: 1 + next(8) }, (_, i) => ({
        id: i + 1,
        number: 10 - i,
        size: 'standard' as const,
        inService: next(5) > 0,
      }));
      const occupations = Array.from({ length: next(10) }, () => {
        const start = next(24);
        return {
          lockerId: 1 + next(lockers.length),
          startAt: new Date(start * hour),
          endAt: new Date((start + 1 + next(6)) * hour),
        };
      });
      const start = next(24);
      const window = { startAt: new Date(start * hour), endAt: new Date((start + 1 + next(8)) * hour) };
      const input = { lockers, occupations, window, maxOnline: next(8) };
      expect(sellableLockerCount(lockers, occupations, window, input.maxOnline)).toBe(
        sellableLockers(input).length,
      );
    }
  });
});
