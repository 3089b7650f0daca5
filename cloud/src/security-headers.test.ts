import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminTestApp, type AdminTestApp } from '../test/admin-test-app';
import { buildCustomerDetails, TODAY_HOLD_REQUEST as HOLD, TEST_PAYER } from '../test/builders';

// Answers carrying a visitor's details, a PIN or an operator's data are never kept by a cache.

describe('Cache-Control on answers with personal data', () => {
  let app: AdminTestApp;
  let bookingId: string;

  beforeAll(async () => {
    app = await startAdminTestApp();
    const hold = await app.call<{ transactionId: string }>('POST', '/api/lockers/inhibit-multi', {
      body: HOLD,
    });
    expect(hold.status).toBe(200);
    bookingId = hold.body.transactionId;
    expect(
      (await app.call('PATCH', `/api/bookings/${bookingId}`, { body: buildCustomerDetails() })).status,
    ).toBe(200);
  });
  afterAll(() => app?.close());

  it('answers the booking read-back with no-store, whatever the case of the path', async () => {
    for (const path of [`/api/bookings/${bookingId}`, `/API/bookings/${bookingId}`]) {
      const answer = await app.call('GET', path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers the booking hold and the details save with no-store', async () => {
    const saved = await app.call('PATCH', `/api/bookings/${bookingId}`, { body: buildCustomerDetails() });
    expect(saved.headers.get('cache-control')).toBe('no-store');
  });

  it('answers the payment page and the payment result with no-store', async () => {
    const page = await app.call('POST', '/api/payments/create-payment', {
      body: {
        transactionId: bookingId,
        ...TEST_PAYER,
      },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const result = await app.call('POST', '/api/payments/decrypt', { body: { a: 'x', b: 'y' } });
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  it('sends an answer as UTF-8 JSON with its length and no validator a cache could use, a HEAD without its body', async () => {
    const path = `/api/bookings/${bookingId}`;
    const answer = await fetch(`${app.url}${path}`);
    const text = await answer.text();
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ transactionId: bookingId });
    // Nothing keeps a no-store answer, so nothing could ask for it again with If-None-Match.
    expect(answer.headers.get('etag')).toBeNull();
    const head = await fetch(`${app.url}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await head.text()).toBe('');
    // Errors go out the same way.
    const missing = await fetch(`${app.url}/api/bookings/${bookingId}x`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(missing.headers.get('etag')).toBeNull();
    expect(await missing.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('answers the admin API with no-store', async () => {
    const token = await app.login();
    const recent = await app.call('GET', '/api/admin/bookings/recent', { token });
    expect(recent.status).toBe(200);
    expect(recent.headers.get('cache-control')).toBe('no-store');
    const refused = await app.call('GET', '/api/admin/bookings/recent');
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});
