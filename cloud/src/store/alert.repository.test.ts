import { describe, expect, it } from 'vitest';
import { STORE_DIALECTS, useTestStore } from '../../test/test-store';

const t0 = new Date('2026-05-04T10:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const offline = (location: string) => ({
  kind: 'bridge_offline',
  subject: `bridge_offline:${location}`,
  locationKey: location,
  lockerId: null,
  message: `Il bridge di ${location} è offline`,
  raisedAt: t0,
});

describe.each(STORE_DIALECTS)('alert repository on %s', (dialect) => {
  const { store } = useTestStore(dialect);

  it('raises one open alert per subject, however often or concurrently it is raised', async () => {
    const raised = await Promise.all([1, 2, 3].map(() => store.alerts.raise(offline('oca'))));
    expect(raised.filter(Boolean)).toHaveLength(1);
    expect(await store.alerts.raise(offline('oca'))).toBeNull();
    expect((await store.alerts.open(10)).map((alert) => alert.subject)).toEqual(['bridge_offline:oca']);
    expect(await store.alerts.openSubjects('bridge_offline')).toEqual(['bridge_offline:oca']);
  });

  it('keeps a resolved alert until acknowledged, then closes it; a new occurrence is a new alert', async () => {
    const first = (await store.alerts.open(10)).find((alert) => alert.subject === 'bridge_offline:oca')!;
    await store.alerts.resolve(['bridge_offline:oca'], at(5));
    const resolved = (await store.alerts.open(10)).find((alert) => alert.id === first.id)!;
    expect(resolved.resolvedAt).toEqual(at(5));
    expect(await store.alerts.openSubjects('bridge_offline')).toEqual([]);

    expect(await store.alerts.acknowledge(first.id, 'ops@deposito.test', at(6))).toBe(true);
    expect(await store.alerts.open(10)).toEqual([]);
    expect(await store.alerts.acknowledge(first.id, 'ops@deposito.test', at(7))).toBe(false);

    const again = await store.alerts.raise({ ...offline('oca'), raisedAt: at(8) });
    expect(again?.id).not.toBe(first.id);
  });

  it('closes an acknowledged alert when its cause goes away', async () => {
    const alert = (await store.alerts.raise(offline('vicolo')))!;
    expect(await store.alerts.acknowledge(alert.id, 'ops@deposito.test', at(1))).toBe(true);
    const seen = (await store.alerts.open(10)).find((open) => open.id === alert.id)!;
    expect(seen).toMatchObject({ acknowledgedBy: 'ops@deposito.test', resolvedAt: null });
    await store.alerts.resolve(['bridge_offline:vicolo'], at(2));
    expect((await store.alerts.open(10)).some((open) => open.id === alert.id)).toBe(false);
  });
});
