import {
  discountListResponseSchema,
  errorBodySchema,
  locationListResponseSchema,
  adminUserListResponseSchema,
  locationsByIdResponseSchema,
  systemSettingsSchema,
  type DiscountCode,
} from '@deposito/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerDetails, TODAY_NOON } from '../../../test/builders';
import { TEST_ADMIN, useAdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// Operator edits that must not lose data (issue 13): discount codes edited in place (item 6), and
// two operators editing the same thing: the second save, made from an older read, is refused with
// `edit/stale` naming the first operator, and changes nothing (item 7).
// Clock: Friday 27 March 2026, 09:00 in Rome.
const SECOND_ADMIN = { email: 'anna@deposito.test', password: 'another long password' };

describe.each(STORE_DIALECTS)('operator edits on %s', (dialect) => {
  const app = useAdminTestApp({ dialect });
  /** A second operator, in another session. */
  let anna: string;

  beforeAll(async () => {
    const added = await app.call('POST', '/api/admin/users', { token: app.token, body: SECOND_ADMIN });
    expect(added.status).toBe(201);
    anna = await app.login(SECOND_ADMIN.email, SECOND_ADMIN.password);
  });

  const errorCode = (body: unknown) => errorBodySchema.parse(body).error.code;
  const errorMessage = (body: unknown) => errorBodySchema.parse(body).error.message;

  /** The 409 of a save made from an older read: names who saved first, says to reload. */
  function expectStale(answer: { status: number; body: unknown }, by: string) {
    expect(answer.status).toBe(409);
    expect(errorCode(answer.body)).toBe('edit/stale');
    expect(errorMessage(answer.body)).toContain(by);
    expect(errorMessage(answer.body)).toMatch(/il \d{2}\/\d{2}\/\d{4} alle \d{2}:\d{2}/);
    expect(errorMessage(answer.body)).toContain('ricarica');
  }

  async function locations() {
    return locationsByIdResponseSchema.parse(
      (await app.call('GET', '/api/admin/locations', { token: app.token })).body,
    );
  }

  async function discount(code: string): Promise<DiscountCode | undefined> {
    const list = await app.call('GET', '/api/discounts/all', { token: app.token });
    return discountListResponseSchema.parse(list.body).find((d) => d.code === code);
  }

  /** A visitor's checkout in progress (a pending hold) that carries `code`. */
  async function checkoutWith(code: string): Promise<string> {
    const held = await app.call<{ transactionId: string }>('POST', '/api/lockers/inhibit-multi', {
      body: { locationKey: 'oca', dimensione: 'standard', quantita: 1, ...TODAY_NOON },
    });
    expect(held.status).toBe(200);
    const id = held.body.transactionId;
    const patched = await app.call('PATCH', `/api/bookings/${id}`, {
      body: buildCustomerDetails({ codice_sconto: code }),
    });
    expect(patched.status).toBe(200);
    return id;
  }

  describe('discount codes', () => {
    it('keeps the code unchanged when an edit is refused (150 %)', async () => {
      const before = await discount('WELCOME10');
      expect(before).toBeDefined();
      const refused = await app.call('PUT', '/api/discounts/WELCOME10', {
        token: app.token,
        body: { ...before, discountPercent: 150, version: before!.version },
      });
      expect(refused.status).toBe(400);
      expect(await discount('WELCOME10')).toEqual(before);
    });

    it('edits in place: the new terms apply and the version rises', async () => {
      const before = (await discount('FIVEOFF'))!;
      const { timesUsed: _used, ...fields } = before;
      const edited = await app.call<{ discount: DiscountCode }>('PUT', '/api/discounts/FIVEOFF', {
        token: app.token,
        body: { ...fields, description: 'Cinque euro', discountEuro: 6 },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.discount).toMatchObject({ description: 'Cinque euro', discountEuro: 6 });
      expect((await discount('FIVEOFF'))?.version).toBe(before.version! + 1);
    });

    it('keeps a used single-use code used after an edit', async () => {
      await checkoutWith('ONCE20');
      const used = (await discount('ONCE20'))!;
      expect(used.timesUsed).toBe(1);
      const { timesUsed: _used, ...fields } = used;
      const edited = await app.call('PUT', '/api/discounts/ONCE20', {
        token: app.token,
        body: { ...fields, description: 'Una volta sola', discountPercent: 25 },
      });
      expect(edited.status).toBe(200);
      expect(await discount('ONCE20')).toMatchObject({ timesUsed: 1, discountPercent: 25 });
      // Another visitor still cannot use it.
      const held = await app.call<{ transactionId: string }>('POST', '/api/lockers/inhibit-multi', {
        body: { locationKey: 'oca', dimensione: 'standard', quantita: 1, ...TODAY_NOON },
      });
      const second = await app.call('PATCH', `/api/bookings/${held.body.transactionId}`, {
        body: buildCustomerDetails({ codice_sconto: 'ONCE20' }),
      });
      expect(second.status).toBe(409);
      expect(errorCode(second.body)).toBe('discount/already_used');
    });

    it('refuses to delete (or rename) a code a checkout in progress carries, and deletes it once paid or gone', async () => {
      const created = await app.call('POST', '/api/discounts/create', {
        token: app.token,
        body: { code: 'INCASSA', discountPercent: 10 },
      });
      expect(created.status).toBe(201);
      const id = await checkoutWith('INCASSA');

      const refused = await app.call('DELETE', '/api/discounts/INCASSA', { token: app.token });
      expect(refused.status).toBe(409);
      expect(errorCode(refused.body)).toBe('discount/in_use');
      expect(errorMessage(refused.body)).toContain('pagamento in corso');
      expect(await discount('INCASSA')).toBeDefined();

      const current = (await discount('INCASSA'))!;
      const { timesUsed: _used, ...fields } = current;
      const renamed = await app.call('PUT', '/api/discounts/INCASSA', {
        token: app.token,
        body: { ...fields, code: 'INCASSA2' },
      });
      expect(renamed.status).toBe(409);
      expect(errorCode(renamed.body)).toBe('discount/in_use');

      // The visitor drops the checkout: the code can go.
      expect((await app.call('POST', `/api/bookings/${id}/cancel`)).status).toBe(200);
      expect((await app.call('DELETE', '/api/discounts/INCASSA', { token: app.token })).status).toBe(200);
      expect(await discount('INCASSA')).toBeUndefined();
    });
  });

  describe('locations and prices (Impostazioni Sedi, Gestione Sedi)', () => {
    const pricing = (euros: number) => ({
      standard: { hours: { '3': euros }, days: { '1': 20 } },
      large: { hours: { '3': euros + 2 }, days: { '1': 25 } },
    });

    it("refuses the second operator's price save made from an older read, naming the first, and changes nothing", async () => {
      const read = locationListResponseSchema.parse(
        (await app.call('GET', '/api/locations/all', { token: anna })).body,
      );
      const magna = read.find((l) => l.key === 'magna')!;
      const oca = read.find((l) => l.key === 'oca')!;
      expect(magna.version).toEqual(expect.any(Number));

      // The first operator changes Magna's prices.
      const first = await app.call('POST', '/api/locations/update-prices', {
        token: app.token,
        body: [{ key: 'magna', pricing: pricing(9.5), version: magna.version }],
      });
      expect(first.status).toBe(200);

      // The second, from the page loaded before, saves Magna and Oca: refused, nothing written.
      const second = await app.call('POST', '/api/locations/update-prices', {
        token: anna,
        body: [
          { key: 'oca', pricing: pricing(4), version: oca.version },
          { key: 'magna', pricing: pricing(3), version: magna.version },
        ],
      });
      expectStale(second, 'ops@deposito.test');
      const after = await locations();
      expect(after.magna.pricing).toEqual(pricing(9.5));
      expect(after.oca.pricing).toEqual(oca.pricing);
      expect(after.oca.version).toBe(oca.version);
      expect(after.magna.version).toBe(magna.version! + 1);
    });

    it('writes only the locations sent: saving one never reverts another', async () => {
      const read = await locations();
      // Another operator reprices Vicolo meanwhile.
      expect(
        (
          await app.call('POST', '/api/locations/update-prices', {
            token: anna,
            body: [{ key: 'vicolo', pricing: pricing(8), version: read.vicolo.version }],
          })
        ).status,
      ).toBe(200);
      // This page saves only Oca, which it changed.
      expect(
        (
          await app.call('POST', '/api/locations/update-prices', {
            token: app.token,
            body: [{ key: 'oca', pricing: pricing(6), version: read.oca.version }],
          })
        ).status,
      ).toBe(200);
      const after = await locations();
      expect(after.vicolo.pricing).toEqual(pricing(8));
      expect(after.oca.pricing).toEqual(pricing(6));
    });

    it('refuses a stale zone and hours save, and a stale locker count save', async () => {
      const read = await locations();
      const settings = (version: number | undefined, chiusura: string) => [
        { key: 'campo', timezone: read.campo.timezone, orari: { apertura: '08:00', chiusura }, version },
      ];
      expect(
        (
          await app.call('POST', '/api/locations/update-settings', {
            token: anna,
            body: settings(read.campo.version, '21:00'),
          })
        ).status,
      ).toBe(200);
      expectStale(
        await app.call('POST', '/api/locations/update-settings', {
          token: app.token,
          body: settings(read.campo.version, '23:00'),
        }),
        SECOND_ADMIN.email,
      );
      expect((await locations()).campo.orari.chiusura).toBe('21:00');

      const counts = read.campo.lockerStructure;
      expectStale(
        await app.call('POST', '/api/locations/update-locker-structure', {
          token: app.token,
          body: [
            {
              key: 'campo',
              lockerStructure: { standard: counts.standard.length + 1, large: counts.large.length },
              version: read.campo.version,
            },
          ],
        }),
        SECOND_ADMIN.email,
      );
      expect((await locations()).campo.lockerStructure).toEqual(counts);
    });

    it("refuses a stale edit of a location's fields (Gestione Sedi)", async () => {
      const read = await locations();
      expect(
        (
          await app.call('PATCH', '/api/admin/locations/vicolo', {
            token: anna,
            body: { nome: 'Vicolo Nuovo', version: read.vicolo.version },
          })
        ).status,
      ).toBe(200);
      expectStale(
        await app.call('PATCH', '/api/admin/locations/vicolo', {
          token: app.token,
          body: { indirizzo: 'Altrove 1', version: read.vicolo.version },
        }),
        SECOND_ADMIN.email,
      );
      const after = await locations();
      expect(after.vicolo).toMatchObject({ nome: 'Vicolo Nuovo', indirizzo: read.vicolo.indirizzo });
    });

    it('lets exactly one of two simultaneous saves from the same read win', async () => {
      const read = await locations();
      const answers = await Promise.all(
        [app.token, anna].map((session, index) =>
          app.call('POST', '/api/locations/update-prices', {
            token: session,
            body: [{ key: 'magna', pricing: pricing(10 + index), version: read.magna.version }],
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.findIndex((a) => a.status === 200);
      const after = await locations();
      expect(after.magna.pricing).toEqual(pricing(10 + winner));
      expect(after.magna.version).toBe(read.magna.version! + 1);
    });

    it("still saves a spec client's body that carries no version", async () => {
      expect(
        (
          await app.call('POST', '/api/locations/update-prices', {
            token: app.token,
            body: [{ key: 'oca', pricing: pricing(7) }],
          })
        ).status,
      ).toBe(200);
      expect((await locations()).oca.pricing).toEqual(pricing(7));
    });
  });

  describe('system parameters', () => {
    it("refuses the second operator's save made from an older read, naming the first, and changes nothing", async () => {
      const read = systemSettingsSchema.parse(
        (await app.call('GET', '/api/admin/settings/system', { token: anna })).body,
      );
      expect(read.version).toEqual(expect.any(Number));
      const first = await app.call('POST', '/api/admin/settings/system', {
        token: app.token,
        body: { ...read, FASTTRACK_FROM: '07:00' },
      });
      expect(first.status).toBe(200);
      expect(systemSettingsSchema.parse(first.body).version).toBe(read.version! + 1);

      // The second operator's form still holds the old values: saving it would revert 07:00.
      expectStale(
        await app.call('POST', '/api/admin/settings/system', {
          token: anna,
          body: { ...read, MAINTENANCE_MODE: true },
        }),
        'ops@deposito.test',
      );
      const after = systemSettingsSchema.parse(
        (await app.call('GET', '/api/admin/settings/system', { token: app.token })).body,
      );
      expect(after).toMatchObject({ FASTTRACK_FROM: '07:00', MAINTENANCE_MODE: false });
      expect(after.version).toBe(read.version! + 1);
    });
  });

  describe('discount codes, two operators', () => {
    it("refuses the second operator's edit made from an older read, naming the first, and changes nothing", async () => {
      const read = (await discount('LONGSTAY'))!;
      const { timesUsed: _used, ...fields } = read;
      expect(
        (
          await app.call('PUT', '/api/discounts/LONGSTAY', {
            token: anna,
            body: { ...fields, description: 'Soggiorni lunghi' },
          })
        ).status,
      ).toBe(200);
      expectStale(
        await app.call('PUT', '/api/discounts/LONGSTAY', {
          token: app.token,
          body: { ...fields, description: 'Altro' },
        }),
        SECOND_ADMIN.email,
      );
      expect(await discount('LONGSTAY')).toMatchObject({
        description: 'Soggiorni lunghi',
        version: read.version! + 1,
      });
    });
  });

  describe('administrators (Utenti)', () => {
    it("refuses the second operator's removal or reset made from an older read, naming the first, and changes nothing", async () => {
      const added = await app.call<{ id: number }>('POST', '/api/admin/users', {
        token: app.token,
        body: { email: 'luca@deposito.test', password: 'luca first password' },
      });
      expect(added.status).toBe(201);
      const read = adminUserListResponseSchema
        .parse((await app.call('GET', '/api/admin/users', { token: anna })).body)
        .find((u) => u.email === 'luca@deposito.test')!;
      expect(read.version).toEqual(expect.any(Number));

      const reset = await app.call('POST', `/api/admin/users/${read.id}/password`, {
        token: app.token,
        body: {
          password: 'luca second password',
          version: read.version,
          currentPassword: TEST_ADMIN.password,
        },
      });
      expect(reset.status).toBe(200);

      expectStale(
        await app.call('DELETE', `/api/admin/users/${read.id}?version=${read.version}`, { token: anna }),
        'ops@deposito.test',
      );
      expectStale(
        await app.call('POST', `/api/admin/users/${read.id}/password`, {
          token: anna,
          body: {
            password: 'luca third password',
            version: read.version,
            currentPassword: SECOND_ADMIN.password,
          },
        }),
        'ops@deposito.test',
      );
      // Luca is still there, with the first operator's password.
      expect(await app.login('luca@deposito.test', 'luca second password')).toEqual(expect.any(String));
    });
  });
});
