import { recentErrorLogResponseSchema } from '@deposito/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN, useAdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// The audit trail (issue 17): the log's archive narrowed to operators' actions, a site, a locker,
// a period or who did it, on both databases alike.

describe.each(STORE_DIALECTS)('the audit trail over HTTP (%s)', (dialect) => {
  const app = useAdminTestApp({ dialect });
  const find = async (query: string) => {
    const answer = await app.call('GET', `/api/admin/logs/archive?${query}`, { token: app.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return recentErrorLogResponseSchema.parse(answer.body).map((entry) => entry.message);
  };

  beforeAll(async () => {
    const entries = [
      [
        '2026-03-20T10:00:00.000Z',
        'admin/locker_command',
        'vicolo',
        3,
        'Apri locker 3 (da anna@deposito.test)',
      ],
      [
        '2026-03-21T10:00:00.000Z',
        'admin/locker_command',
        'vicolo',
        5,
        'Disattiva locker 5 (da marco@deposito.test)',
      ],
      ['2026-03-22T10:00:00.000Z', 'admin/booking_moved', 'oca', 3, 'locker 2 → 3 (da anna@deposito.test)'],
      ['2026-03-23T10:00:00.000Z', 'bridge/duplicate_token', 'vicolo', null, 'Two bridges use one token'],
      ['2026-03-24T10:00:00.000Z', 'administrator', null, null, 'A type that only starts like admin/'],
      [
        '2026-03-25T10:00:00.000Z',
        'admin/settings_updated',
        null,
        null,
        'Parametri 100% aggiornati (da marco@deposito.test)',
      ],
    ] as const;
    for (const [at, type, locationKey, lockerId, message] of entries) {
      await app.store.errorLog.add({ at: new Date(at), type, locationKey, lockerId, message });
    }
  });

  it("keeps the operators' actions, of one site and one locker", async () => {
    expect(await find('type=admin%2F&before=2026-03-26T00:00:00.000Z')).toEqual([
      'Parametri 100% aggiornati (da marco@deposito.test)',
      'locker 2 → 3 (da anna@deposito.test)',
      'Disattiva locker 5 (da marco@deposito.test)',
      'Apri locker 3 (da anna@deposito.test)',
    ]);
    expect(await find('type=admin%2Flocker_command&location=vicolo&locker=3')).toEqual([
      'Apri locker 3 (da anna@deposito.test)',
    ]);
    expect(await find('location=vicolo&before=2026-03-26T00:00:00.000Z')).toHaveLength(3);
  });

  it('keeps a period, and what one operator did, by the text of the message in any case', async () => {
    expect(await find('from=2026-03-21T00:00:00.000Z&before=2026-03-23T00:00:00.000Z')).toEqual([
      'locker 2 → 3 (da anna@deposito.test)',
      'Disattiva locker 5 (da marco@deposito.test)',
    ]);
    expect(await find('q=ANNA%40deposito&before=2026-03-26T00:00:00.000Z')).toHaveLength(2);
    // "%" is text: only the message that has it.
    expect(await find('q=100%25')).toEqual(['Parametri 100% aggiornati (da marco@deposito.test)']);
  });

  it('finds an action done through the API by the operator who did it', async () => {
    const read = await app.call<Record<string, { version: number }>>('GET', '/api/admin/locations', {
      token: app.token,
    });
    const patched = await app.call('PATCH', '/api/admin/locations/magna', {
      token: app.token,
      body: { nome: 'Deposito Magna Grecia', version: read.body.magna!.version },
    });
    expect(patched.status).toBe(200);
    const mine = await find(`type=admin%2F&location=magna&q=${encodeURIComponent(TEST_ADMIN.email)}`);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain('magna');
  });

  it('records what an edit changed, before and after, and the address it came from', async () => {
    const settings = await app.call<Record<string, unknown>>('GET', '/api/admin/settings/system', {
      token: app.token,
    });
    expect(settings.status).toBe(200);
    const saved = await app.call('POST', '/api/admin/settings/system', {
      token: app.token,
      body: { ...settings.body, BOOKING_EXPIRATION_MINUTES: 20 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [parameters] = await find('type=admin%2Fsettings_updated');
    expect(parameters).toMatch(
      /^Parametri modificati: BOOKING_EXPIRATION_MINUTES: 15 → 20 \(da ops@deposito\.test, indirizzo (::ffff:)?127\.0\.0\.1\)$/,
    );

    const read = await app.call<Record<string, { version: number }>>('GET', '/api/admin/locations', {
      token: app.token,
    });
    const patched = await app.call('PATCH', '/api/admin/locations/campo', {
      token: app.token,
      body: { maxOnline: { standard: 6, large: 3 }, version: read.body.campo!.version },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const [site] = await find('type=admin%2Flocation_updated&location=campo');
    expect(site).toContain('Sede campo aggiornata: maxOnline.standard: 7 → 6 (da ops@deposito.test');
    expect(site).not.toContain('maxOnline.large');
  });

  it('refuses filters it cannot read', async () => {
    for (const query of ['locker=0', 'location=Not%20a%20key', 'q=a', 'from=yesterday']) {
      expect((await app.call('GET', `/api/admin/logs/archive?${query}`, { token: app.token })).status).toBe(
        400,
      );
    }
  });
});
