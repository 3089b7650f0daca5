import { DateTime } from 'luxon';

// Card numbers the sandbox page accepts, with the outcome each one produces. Same numbers as the
// well-known gateway test cards, so testers can use what they already know.
export interface SandboxTestCard {
  number: string;
  brand: 'Visa' | 'Mastercard';
  outcome: 'approved' | 'declined';
  /** GestPay-style error code and description reported with a decline. */
  errorCode?: string;
  errorDescription?: string;
}

export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = [
  { number: '4242424242424242', brand: 'Visa', outcome: 'approved' },
  { number: '5555555555554444', brand: 'Mastercard', outcome: 'approved' },
  {
    number: '4000000000000002',
    brand: 'Visa',
    outcome: 'declined',
    errorCode: '74',
    errorDescription: 'Authorization denied',
  },
  {
    number: '4000000000009995',
    brand: 'Visa',
    outcome: 'declined',
    errorCode: '251',
    errorDescription: 'Insufficient credit',
  },
];

export interface CardForm {
  cardholder: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export type CardFormError =
  'cardholderRequired' | 'cardNumberInvalid' | 'notATestCard' | 'expiryInvalid' | 'expiryPast' | 'cvcInvalid';

export type CardCheck =
  { ok: true; card: SandboxTestCard } | { ok: false; errors: Partial<Record<keyof CardForm, CardFormError>> };

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Checks the form as a card page would, then looks the number up among the test cards. */
export function checkCardForm(form: CardForm, now: Date): CardCheck {
  const errors: Partial<Record<keyof CardForm, CardFormError>> = {};
  if (form.cardholder.trim() === '') errors.cardholder = 'cardholderRequired';

  const number = form.cardNumber.replace(/[\s-]/g, '');
  const card = SANDBOX_TEST_CARDS.find((candidate) => candidate.number === number);
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) errors.cardNumber = 'cardNumberInvalid';
  else if (!card) errors.cardNumber = 'notATestCard';

  const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(form.expiry);
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12) {
    errors.expiry = 'expiryInvalid';
  } else {
    const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    // A card is valid through the last day of its expiry month.
    const endOfValidity = DateTime.utc(year, month, 1).endOf('month');
    if (endOfValidity.toMillis() < now.getTime()) errors.expiry = 'expiryPast';
  }

  if (!/^\d{3,4}$/.test(form.cvc.trim())) errors.cvc = 'cvcInvalid';

  if (Object.keys(errors).length > 0 || !card) return { ok: false, errors };
  return { ok: true, card };
}
