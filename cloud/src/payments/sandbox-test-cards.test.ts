import { describe, expect, it } from 'vitest';
import { checkCardForm } from './sandbox-test-cards';

const now = new Date('2026-05-31T23:00:00Z');
const form = { cardholder: 'Ann Lee', cardNumber: '4242 4242 4242 4242', expiry: '05/26', cvc: '123' };

describe('sandbox card form', () => {
  it('accepts a test card valid through the end of its expiry month', () => {
    expect(checkCardForm(form, now)).toMatchObject({ ok: true, card: { outcome: 'approved' } });
    expect(checkCardForm({ ...form, expiry: '0526' }, now).ok).toBe(true);
    expect(checkCardForm({ ...form, expiry: '5/2026' }, now).ok).toBe(true);
  });

  it('finds the declining cards', () => {
    expect(checkCardForm({ ...form, cardNumber: '4000-0000-0000-0002' }, now)).toMatchObject({
      ok: true,
      card: { outcome: 'declined', errorCode: '74' },
    });
    expect(checkCardForm({ ...form, cardNumber: '4000000000009995' }, now)).toMatchObject({
      ok: true,
      card: { outcome: 'declined', errorCode: '251' },
    });
  });

  it('names each wrong field', () => {
    expect(checkCardForm({ cardholder: '', cardNumber: '1234', expiry: '00/30', cvc: '12345' }, now)).toEqual(
      {
        ok: false,
        errors: {
          cardholder: 'cardholderRequired',
          cardNumber: 'cardNumberInvalid',
          expiry: 'expiryInvalid',
          cvc: 'cvcInvalid',
        },
      },
    );
    expect(checkCardForm({ ...form, expiry: '04/26' }, now)).toEqual({
      ok: false,
      errors: { expiry: 'expiryPast' },
    });
    expect(checkCardForm({ ...form, cardNumber: '4111111111111111' }, now)).toEqual({
      ok: false,
      errors: { cardNumber: 'notATestCard' },
    });
  });
});
