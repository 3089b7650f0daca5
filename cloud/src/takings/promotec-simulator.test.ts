import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { simulatedProceeds } from './promotec-simulator';

describe('simulatedProceeds', () => {
  it('is deterministic per location and month and differs between them', () => {
    expect(simulatedProceeds('roma', 'Europe/Rome', '2026-07')).toEqual(
      simulatedProceeds('roma', 'Europe/Rome', '2026-07'),
    );
    expect(simulatedProceeds('roma', 'Europe/Rome', '2026-08')).not.toEqual(
      simulatedProceeds('roma', 'Europe/Rome', '2026-07'),
    );
    expect(simulatedProceeds('oca', 'Europe/Rome', '2026-07')).not.toEqual(
      simulatedProceeds('roma', 'Europe/Rome', '2026-07'),
    );
  });

  it('takes plausible payments within opening hours of the month, in the location zone', () => {
    const proceeds = simulatedProceeds('campo', 'Europe/London', '2026-10');
    expect(proceeds.length).toBeGreaterThan(50);
    for (const payment of proceeds) {
      const at = DateTime.fromISO(payment.date, { zone: 'Europe/London' });
      expect(at.toFormat('yyyy-MM')).toBe('2026-10');
      expect(at.hour).toBeGreaterThanOrEqual(7);
      expect(at.hour).toBeLessThan(21);
      expect(payment.amountCents).toBeGreaterThan(0);
      expect(payment.amountCents % 50).toBe(0);
      expect(payment.lockerId).toBeGreaterThanOrEqual(1);
    }
    // Offsets follow the zone: BST before the last Sunday of October, GMT after.
    expect(proceeds.find((payment) => payment.date.startsWith('2026-10-01'))?.date).toMatch(/\+01:00$/);
    expect(proceeds.find((payment) => payment.date.startsWith('2026-10-30'))?.date).toMatch(/Z$|\+00:00$/);
    expect(new Set(proceeds.map((payment) => payment.billNo)).size).toBe(proceeds.length);
    expect(proceeds.some((payment) => payment.type === 'supplement')).toBe(true);
  });

  it('leaves out payments after the given instant', () => {
    const until = new Date('2026-10-10T00:00:00Z');
    const upTo = simulatedProceeds('campo', 'Europe/London', '2026-10', until);
    expect(upTo.length).toBeGreaterThan(0);
    expect(upTo.every((payment) => new Date(payment.date) <= until)).toBe(true);
    expect(upTo).toEqual(simulatedProceeds('campo', 'Europe/London', '2026-10').slice(0, upTo.length));
  });
});
