import { errorBodySchema } from '@deposito/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerDetails } from '../../../test/builders';
import { startPaymentTestApp } from '../../../test/payment-test-app';
import { APOSTROPHE_PAYER } from '../../../test/payment-visitor';
import { holdOverApi, useTestApp } from '../../../test/test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// Phone numbers as visitors type them, through the real HTTP calls: spaces, dashes, a leading + or
// 00 with the country code, any country; kept as dial code + national number (E.164 together),
// and garbage refused with its own code (the page shows form.error.phone.invalid).
// Clock: Friday 27 March 2026, 09:00 in Rome.

describe.each(STORE_DIALECTS)('customer phone numbers on %s', (dialect) => {
  const { test, api } = useTestApp(() => startPaymentTestApp({ dialect }));
  /** One hold for every call: details may be sent again and again until payment starts. */
  let id: string;

  beforeAll(async () => {
    id = await holdOverApi(api);
  });

  const storedPhone = async (id: string) => {
    const customer = (await test.store.bookings.get(id))?.customer;
    return { phonePrefix: customer?.phonePrefix, phoneNumber: customer?.phoneNumber };
  };

  it.each([
    ['+39', '+39 333 123 4567', '+39', '3331234567'],
    ['+39', '333 123 4567', '+39', '3331234567'],
    ['+39', '333-123-4567', '+39', '3331234567'],
    ['+39', '0039 333 123 4567', '+39', '3331234567'],
    ['+39', '06 1234 5678', '+39', '0612345678'],
    ['+44', '020 7946 0018', '+44', '2079460018'],
    ['+1', '(201) 555-0123', '+1', '2015550123'],
    // The number's own country code wins over the prefix sent beside it.
    ['+39', '+44 20 7946 0018', '+44', '2079460018'],
  ])('PATCH keeps %s %j as %s %s', async (prefix, number, storedPrefix, storedNumber) => {
    const answer = await api.patch(
      `/api/bookings/${id}`,
      buildCustomerDetails({ telefono_prefisso: prefix, telefono_numero: number }),
    );
    expect(answer.status).toBe(200);
    expect(await storedPhone(id)).toEqual({ phonePrefix: storedPrefix, phoneNumber: storedNumber });
  });

  it.each([
    ['+39', '000 000 0000'],
    ['+39', '123'],
    ['+39', '333 FLOWERS'],
    ['+1', '333 123 4567'],
    ['+39', '<script>alert(1)</script>'],
    ['+39', '3'.repeat(40)],
  ])('PATCH refuses %s %j with customer/phone_invalid and changes nothing', async (prefix, number) => {
    const before = await storedPhone(id);
    expect(before.phoneNumber).toBeTruthy();
    const answer = await api.patch(
      `/api/bookings/${id}`,
      buildCustomerDetails({ telefono_prefisso: prefix, telefono_numero: number }),
    );
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.body).error.code).toBe('customer/phone_invalid');
    expect(await storedPhone(id)).toEqual(before);
  });

  it('create-payment reads telefono with spaces or 00 and refuses garbage', async () => {
    const payment = (transactionId: string, telefono: string) =>
      api.post(`/api/payments/create-payment`, { ...APOSTROPHE_PAYER, amount: 550, transactionId, telefono });
    const garbage = await payment(id, '+39 000');
    expect(garbage.status).toBe(400);
    expect(errorBodySchema.parse(garbage.body).error.code).toBe('customer/phone_invalid');
    expect((await test.store.bookings.get(id))?.status).toBe('pending');

    expect((await payment(id, '0044 20 7946 0018')).status).toBe(200);
    expect(await storedPhone(id)).toEqual({ phonePrefix: '+44', phoneNumber: '2079460018' });
  });
});
