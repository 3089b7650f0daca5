import { alertsResponseSchema, type Alert } from '@deposito/protocol';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminTestApp, TEST_ADMIN, type AdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';
import { DUPLICATE_BRIDGE_LOG_TYPE } from '../../bridge-hub/bridge-hub';
import type { Mailer, OutgoingMail } from '../../mail/mailer';
import { StoreLockerControl } from '../../services/locker-control';
import { PAYMENT_ERROR_LOG_TYPE, PAYMENT_REFUND_MADE_LOG_TYPE } from '../../services/payment.service';
import { buildDoorOpenedEvent } from '../../../test/builders';

// The operators' alerts (issue 17): raised once while their cause lasts, e-mailed to every
// operator once, resolved by themselves, closed when acknowledged; events (a PIN not delivered)
// alerted once. The site's bridge status is the hub's (a stand-in here); the clock the test's.

const minutesAgo = (app: AdminTestApp, minutes: number) =>
  new Date(app.clock.now().getTime() - minutes * 60_000);

describe.each(STORE_DIALECTS)('operator alerts over HTTP (%s)', (dialect) => {
  let app: AdminTestApp;
  let token: string;
  const sent: OutgoingMail[] = [];
  const sites = new Map<string, { online: boolean; lastSeenAt: Date | null }>();
  const mailer: Mailer = {
    send: async (mail) => {
      sent.push(mail);
      return { messageId: randomUUID(), file: null };
    },
    close: () => undefined,
  };

  beforeAll(async () => {
    app = await startAdminTestApp({
      dialect,
      lockerControl: (context) =>
        Object.assign(new StoreLockerControl(context.store, context.clock), {
          siteStatus: async (key: string) => sites.get(key) ?? { online: false, lastSeenAt: null },
        }),
      mailer,
    });
    token = await app.login();
    await app.store.bridge.setTokenHash('vicolo', 'a'.repeat(64), app.clock.now());
    // A technician of another site is told only of its own site's alerts.
    await app.store.adminUsers.create(
      { email: 'oca-tech@deposito.test', passwordHash: 'x', role: 'technician', sites: ['oca'] },
      app.clock.now(),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  const alerts = async () => {
    const answer = await app.call('GET', '/api/admin/alerts', { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return alertsResponseSchema.parse(answer.body);
  };
  const acknowledge = (alert: Alert) =>
    app.call('POST', `/api/admin/alerts/${alert.id}/acknowledge`, { token });

  it("raises a site's offline bridge once past the threshold, e-mails the operators once, and resolves it", async () => {
    // Its token is brand new: a bridge never heard from is not late yet.
    sites.set('vicolo', { online: false, lastSeenAt: null });
    expect(await alerts()).toEqual([]);
    sites.set('vicolo', { online: false, lastSeenAt: minutesAgo(app, 4) });
    expect(await alerts()).toEqual([]);

    sites.set('vicolo', { online: false, lastSeenAt: minutesAgo(app, 6) });
    const [offline] = await alerts();
    expect(offline).toMatchObject({ kind: 'bridge_offline', locationKey: 'vicolo', resolvedAt: null });
    expect(offline!.message).toContain('offline da 6 minuti');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: TEST_ADMIN.email });
    expect(sent[0]!.subject).toContain('allarme');
    expect(sent[0]!.text).toContain('Deposito Vicolo');

    expect(await alerts()).toHaveLength(1);
    expect(sent).toHaveLength(1);

    // Back online: resolved, still listed until an operator has seen it.
    sites.set('vicolo', { online: true, lastSeenAt: app.clock.now() });
    const [resolved] = await alerts();
    expect(resolved!.resolvedAt).not.toBeNull();
    expect((await acknowledge(resolved!)).status).toBe(200);
    expect(await alerts()).toEqual([]);
    expect((await acknowledge(resolved!)).status).toBe(404);
    const log = await app.store.errorLog.recent(5);
    expect(log.find((entry) => entry.type === 'admin/alert_acknowledged')?.message).toContain(
      TEST_ADMIN.email,
    );
  });

  it('raises a door left open past its threshold, and resolves it when the door closes', async () => {
    await app.store.bridge.insertEvent(
      buildDoorOpenedEvent({ occurredAt: minutesAgo(app, 12) }),
      minutesAgo(app, 12),
    );
    await app.store.bridge.applyLockerStates(
      'vicolo',
      [{ lockerId: 3, occupancy: 'free', doorOpen: true, observedAt: minutesAgo(app, 1) }],
      app.clock.now(),
    );
    const [door] = await alerts();
    expect(door).toMatchObject({ kind: 'door_open', locationKey: 'vicolo', lockerId: 3 });
    expect(door!.message).toContain('aperto da 12 minuti');

    await app.store.bridge.applyLockerStates(
      'vicolo',
      [{ lockerId: 3, doorOpen: false, observedAt: app.clock.now() }],
      app.clock.now(),
    );
    expect((await alerts())[0]!.resolvedAt).not.toBeNull();
    expect((await acknowledge(door!)).status).toBe(200);
  });

  it('alerts a PIN that could not be delivered once, even after it was acknowledged', async () => {
    await app.store.errorLog.add({
      at: app.clock.now(),
      type: 'bridge/pin_not_programmed',
      locationKey: 'vicolo',
      lockerId: 5,
      message: 'The controller refused the PIN of booking X on locker 5',
    });
    const [pin] = await alerts();
    expect(pin).toMatchObject({ kind: 'pin_not_delivered', lockerId: 5 });
    expect(pin!.message).toMatch(/^PIN non consegnato: /);
    expect((await acknowledge(pin!)).status).toBe(200);
    expect(await alerts()).toEqual([]);
  });

  it('alerts a second bridge refused for using a site token, once per entry the hub logs for a burst', async () => {
    const before = sent.length;
    await app.store.errorLog.add({
      at: app.clock.now(),
      type: DUPLICATE_BRIDGE_LOG_TYPE,
      locationKey: 'vicolo',
      lockerId: null,
      message: 'Due bridge usano il token della sede vicolo: il secondo (10.0.0.9) è stato rifiutato',
    });
    const [duplicate] = await alerts();
    expect(duplicate).toMatchObject({ kind: 'duplicate_bridge', locationKey: 'vicolo', lockerId: null });
    expect(duplicate!.message).toMatch(/^Due bridge con lo stesso token: Due bridge usano il token/);
    expect(sent.slice(before).map((mail) => mail.to)).toEqual([TEST_ADMIN.email]);
    expect(sent.at(-1)!.text).toContain('10.0.0.9');
    expect((await acknowledge(duplicate!)).status).toBe(200);
    expect(await alerts()).toEqual([]);
  });

  it('alerts a payment to act on, and not the record of a refund made', async () => {
    const entry = (type: string, message: string) =>
      app.store.errorLog.add({ at: app.clock.now(), type, locationKey: 'oca', lockerId: null, message });
    await entry(
      PAYMENT_REFUND_MADE_LOG_TYPE,
      'Booking Y: 5,50 € refunded by the gateway (R1); nothing to do',
    );
    expect(await alerts()).toEqual([]);
    await entry(PAYMENT_ERROR_LOG_TYPE, 'Booking Z was paid after its hold expired: refund it');
    const [payment] = await alerts();
    expect(payment).toMatchObject({ kind: 'payment_to_check', locationKey: 'oca' });
    expect((await acknowledge(payment!)).status).toBe(200);

    await entry('promotec', 'The kiosk system did not answer (timeout)');
    const [totem] = await alerts();
    expect(totem!.message).toMatch(/^Sistema totem non raggiungibile: /);
    expect((await acknowledge(totem!)).status).toBe(200);
  });

  it('raises a site whose bridge never connected once its token is older than the threshold', async () => {
    await app.store.bridge.setTokenHash('oca', 'b'.repeat(64), minutesAgo(app, 30));
    const before = sent.length;
    const [never] = await alerts();
    expect(
      sent
        .slice(before)
        .map((mail) => mail.to)
        .sort(),
    ).toEqual(['oca-tech@deposito.test', TEST_ADMIN.email].sort());
    expect(never).toMatchObject({ kind: 'bridge_offline', locationKey: 'oca' });
    expect(never!.message).toContain('non si è mai collegato (token emesso 30 minuti fa)');
    await app.store.bridge.removeToken('oca');
    expect((await alerts())[0]!.resolvedAt).not.toBeNull();
    expect((await acknowledge(never!)).status).toBe(200);
  });

  it('refuses the alerts to anyone not logged in', async () => {
    expect((await app.call('GET', '/api/admin/alerts')).status).toBe(401);
    expect((await app.call('POST', '/api/admin/alerts/1/acknowledge')).status).toBe(401);
  });
});
