import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerDetails, TODAY_HOLD_REQUEST as HOLD } from '../../test/builders';
import { startTestApp, useTestApp } from '../../test/test-app';
import { STORE_DIALECTS } from '../../test/test-store';

// Control characters never reach the store (PostgreSQL refuses U+0000 in text) and an unreadable
// body is the sender's 400, on both stores.

interface ErrorAnswer {
  error: { code: string };
}

describe.each(STORE_DIALECTS)('text and bodies the store could not take, on %s', (dialect) => {
  const { test, api } = useTestApp(() => startTestApp({ dialect }));
  let bookingId: string;

  beforeAll(async () => {
    const hold = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', HOLD);
    expect(hold.status).toBe(200);
    bookingId = hold.body.transactionId;
  });

  it.each([
    ['first name', { nome: 'Giu\u0000lia' }],
    ['e-mail', { email: 'giulia\u0000@example.com', conferma_email: 'giulia\u0000@example.com' }],
    ['last name, another control character', { cognome: 'Ro\u001bssi' }],
    ['last name, DEL', { cognome: 'Ro\u007fssi' }],
  ])(
    'refuses a U+0000 or control character in the booking details (%s) and keeps the booking',
    async (_, fields) => {
      const answer = await api.patch<ErrorAnswer>(`/api/bookings/${bookingId}`, buildCustomerDetails(fields));
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation/invalid_body');
      const saved = await test.store.bookings.get(bookingId);
      expect(saved?.customer.email).toBeNull();
    },
  );

  it('refuses half of a UTF-16 surrogate pair in the text, which the store would keep as U+FFFD', async () => {
    // JSON may escape one (`"\\ud83d"`); no Unicode text has it alone, and both stores would write
    // the replacement character instead of what was sent.
    for (const note of ['Valigia \ud83d rossa', 'Valigia \ude00', '\ude00\ud83d']) {
      const answer = await api.patch<ErrorAnswer>(
        `/api/bookings/${bookingId}`,
        buildCustomerDetails({ note }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('validation/invalid_body');
    }
    expect((await test.store.bookings.get(bookingId))?.customer.email).toBeNull();
    // A whole pair (an emoji) is text like any other.
    const whole = await api.patch(
      `/api/bookings/${bookingId}`,
      buildCustomerDetails({ note: 'Valigia 😀 rossa' }),
    );
    expect(whole.status).toBe(200);
    expect((await test.store.bookings.get(bookingId))?.note).toBe('Valigia 😀 rossa');
  });

  it('still saves ordinary details afterwards', async () => {
    const answer = await api.patch(`/api/bookings/${bookingId}`, buildCustomerDetails());
    expect(answer.status).toBe(200);
  });

  it.each([
    ['booking note', '/api/bookings/save', { location: 'oca', ...HOLD, quantita: 1, note: 'a\u0000b' }],
    ['hold', '/api/lockers/inhibit-multi', { ...HOLD, locationKey: 'oca\u0000' }],
    ['discount code', '/api/discounts/validate-discount', { code: 'ABC\u0000' }],
    ['login e-mail', '/api/admin/login', { email: 'admin\u0000@example.com', password: 'whatever-123' }],
    ['a key, not a value', '/api/discounts/validate-discount', { code: 'ABC', 'x\u0000': 1 }],
  ])('refuses U+0000 in the %s with a 400', async (_, path, body) => {
    const answer = await api.post<ErrorAnswer>(path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation/invalid_body');
  });

  it.each([
    ['/api/locations/oca%00', 'validation/invalid_params'],
    ['/api/locations/%E0%A4%A', 'validation/invalid_params'],
    [
      '/api/bookings/availability?location=oca%00&startDate=2026-03-27&endDate=2026-03-28',
      'validation/invalid_query',
    ],
  ])('refuses %s with a 400', async (path, code) => {
    const answer = await api.get<ErrorAnswer>(path);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(code);
  });

  const post = (encoding: string, body: Uint8Array | string) =>
    fetch(`${test.url}/api/discounts/validate-discount`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body,
    });

  it.each([
    ['gzip', gzipSync(Buffer.from('{"code":"ABC"}')).subarray(0, 12)],
    ['gzip', Buffer.from('definitely not gzip')],
    ['deflate', Buffer.from('definitely not deflate')],
    ['br', Buffer.from('definitely not brotli at all')],
    ['x-unknown', Buffer.from('{"code":"ABC"}')],
  ])('answers a corrupt or unknown %s body with 400, not 500', async (encoding, body) => {
    const answer = await post(encoding, body);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as ErrorAnswer).error.code).toBe('validation/invalid_body');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('reads a sound %s body, and bounds its size once inflated', async (encoding, compress) => {
    const sound = await post(encoding, compress(Buffer.from(JSON.stringify({ code: 'NOSUCHCODE' }))));
    expect(sound.status).not.toBe(400);
    expect(sound.status).toBeLessThan(500);
    const bomb = compress(Buffer.from(JSON.stringify({ code: 'x'.repeat(5_000_000) })));
    expect(bomb.length).toBeLessThan(32_000);
    const answer = await post(encoding, bomb);
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as ErrorAnswer).error.code).toBe('request/too_large');
  });
});
