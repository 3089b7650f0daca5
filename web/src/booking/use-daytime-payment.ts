import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useNavigate } from 'react-router-dom';
import { buildNote, isLanguage } from '@deposito/protocol/booking/note';
import { internationalPhone, paymentPrecheck } from '@deposito/protocol/forms/customer-form';
import { amountInCents, centsToEuros, validatePaymentAmount } from '@deposito/protocol/pricing/money';
import { wireDuration } from '@deposito/protocol/pricing/price-table';
import type { bookingTotals } from '@deposito/protocol/pricing/totals';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { createPayment, saveBooking, saveCustomerDetails } from '../api/deposito-api';
import { isApiError } from '../api/http';
import type { CustomerFormState } from '../components/CustomerForm';
import { useClock } from '../components/clock';
import { openPaymentPage, PAYMENT_REDIRECT_DELAY_MS } from '../components/payment-page';
import type { LockerHold } from './daytime-state';

// The daytime summary's payment: save the visitor's details, save the booking, open the provider's
// page, each step's refusal said in the visitor's language; the hold's window and a 3-minute limit
// on the whole stop it. Moved out of DaytimeSummary.tsx unchanged (issue 22).

/** The pay button gives up after 3 minutes. */
export const PAYMENT_TIMEOUT_MS = 180_000;

const MAX_TIMER_MS = 2 ** 31 - 1;

/** `frozen`: a payment page is open for this hold, so it can no longer change (start again instead). */
export type PayState = 'idle' | 'submitting' | 'redirecting' | 'timedOut' | 'expired' | 'frozen';

type Totals = ReturnType<typeof bookingTotals>;
type Customer = Extract<ReturnType<typeof paymentPrecheck>, { ok: true }>['form'];

/** The booking as saved before payment: the held lockers, the period, the server's prices. */
function bookingBody(
  location: PublicLocation,
  hold: LockerHold,
  totals: Totals,
  note: string,
  nowIso: string,
) {
  return {
    transactionId: hold.transactionId,
    location: location.key,
    startTimeIso: hold.startTimeIso,
    endTimeIso: hold.endTimeIso,
    createdAtIso: nowIso,
    locker: {
      lockerId: hold.reservedLockers[0] ?? null,
      size: hold.size,
      duration: hold.fastTrack ? hold.duration.value : wireDuration(hold.duration),
    },
    reservedLockers: hold.reservedLockers,
    quantita: hold.quantity,
    price: centsToEuros(totals.priceCents),
    prezzoScontato: centsToEuros(totals.discountedPriceCents),
    note,
    ...(hold.fastTrack
      ? {
          status: 'pending' as const,
          createdAt: nowIso,
          startTime: hold.startTimeIso,
          endTime: hold.endTimeIso,
          duration: hold.duration.value,
        }
      : {}),
  };
}

/** What the provider's page is opened with. */
function paymentBody(
  transactionId: string,
  amount: number,
  hold: LockerHold,
  totals: Totals,
  customer: Customer,
  discountCode: string,
  note: string,
) {
  return {
    currency: 'EUR' as const,
    amount,
    transactionId,
    lockerId: hold.reservedLockers[0] ?? null,
    duration: hold.fastTrack ? hold.duration.value : wireDuration(hold.duration),
    price: centsToEuros(totals.priceCents),
    email: customer.email,
    nome: customer.name,
    cognome: customer.surname,
    telefono: internationalPhone(customer),
    codiceSconto: discountCode,
    note,
  };
}

/** The form and the amount as protocol checks them before anything is sent; the error is a translation key. */
function checkedPayment(values: CustomerFormState['values'], totals: Totals) {
  const checked = paymentPrecheck(values);
  if (!checked.ok) return { ok: false, error: checked.error } as const;
  const amount = amountInCents(totals.totalCents);
  const amountCheck = validatePaymentAmount(amount);
  if (!amountCheck.ok) return { ok: false, error: amountCheck.error } as const;
  return { ok: true, customer: checked.form, amount } as const;
}

/** The provider's refusal, or an unexpected failure, in the visitor's words. */
function paymentErrorText(t: TFunction, failure: unknown): string {
  const message = isApiError(failure) && failure.message ? failure.message : t('payment.error.unknown');
  return t('payment.error.generic', { message });
}

/** The server releases held lockers when the payment window closes: `onExpire` with the message then. */
function useHoldExpiry(expiresAt: string | null | undefined, onExpire: (message: string) => void) {
  const { t } = useTranslation();
  const clock = useClock();
  const latest = useRef(onExpire);
  useEffect(() => {
    latest.current = onExpire;
  }, [onExpire]);
  useEffect(() => {
    if (!expiresAt) return;
    const remaining = Date.parse(expiresAt) - clock().getTime();
    const expire = () => latest.current(t('payment.error.holdExpired'));
    if (remaining <= 0) {
      expire();
      return;
    }
    // Timers cannot wait longer than ~24.8 days; a hold never lasts that long unless the clocks disagree.
    if (remaining > MAX_TIMER_MS) return;
    const timer = window.setTimeout(expire, remaining);
    return () => window.clearTimeout(timer);
  }, [expiresAt, clock, t]);
}

/** A payment step that failed: the server's or the network's error, and what the visitor reads. */
class PaymentStepFailure extends Error {
  constructor(
    override readonly cause: unknown,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The three steps of paying, in order: the visitor's details, the booking, the provider's page (or
 * the booking-complete answer of a booking confirmed without payment). A step that fails rejects
 * with its own message; the ones after it are not tried.
 */
async function submitPayment(
  payment: {
    location: PublicLocation;
    hold: LockerHold;
    totals: Totals;
    customer: Customer;
    discountCode: string;
    note: string;
    amount: number;
  },
  { now, signal, t }: { now: () => string; signal: AbortSignal; t: TFunction },
) {
  const { location, hold, totals, customer, discountCode, note, amount } = payment;
  const step = async <Answer>(run: () => Promise<Answer>, message: (failure: unknown) => string) => {
    try {
      return await run();
    } catch (failure) {
      throw new PaymentStepFailure(failure, message(failure));
    }
  };
  await step(
    () =>
      saveCustomerDetails(hold.transactionId, {
        nome: customer.name,
        cognome: customer.surname,
        email: customer.email,
        conferma_email: customer.confirmEmail,
        telefono_prefisso: customer.phonePrefix,
        telefono_numero: customer.phone,
        codice_sconto: discountCode,
        note,
      }),
    () => t('payment.error.save'),
  );
  const saved = await step(
    () => saveBooking(bookingBody(location, hold, totals, note, now())),
    () => t('payment.error.finalSave'),
  );
  return step(
    () =>
      createPayment(
        paymentBody(saved.transactionId, amount, hold, totals, customer, discountCode, note),
        signal,
      ),
    (failure) => paymentErrorText(t, failure),
  );
}

/** Back from the provider's page the browser may restore this page as it was left, waiting for the
 * redirect: let the visitor pay again (a change to what is paid is then refused, see handleFrozen). */
function usePageRestored(onRestored: () => void) {
  const latest = useRef(onRestored);
  useEffect(() => {
    latest.current = onRestored;
  }, [onRestored]);
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) latest.current();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);
}

/** The pay button's state and its message, and `pay`, for one hold. */
export function useDaytimePayment({
  location,
  hold,
  totals,
  discountCode,
  form,
}: {
  location: PublicLocation;
  hold: LockerHold;
  totals: Totals;
  discountCode: string;
  form: CustomerFormState;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const clock = useClock();
  const [payState, setPayState] = useState<PayState>('idle');
  const [error, setError] = useState<string | null>(null);
  const [fallbackMessage, setFallbackMessage] = useState<string | null>(null);
  const timers = useRef<number[]>([]);
  const abort = useRef<AbortController | null>(null);
  const clearTimers = () => timers.current.forEach((timer) => window.clearTimeout(timer));

  useEffect(
    () => () => {
      timers.current.forEach((timer) => window.clearTimeout(timer));
      abort.current?.abort();
    },
    [],
  );
  usePageRestored(() => setPayState((state) => (state === 'redirecting' ? 'idle' : state)));

  // The server releases held lockers when the payment window closes; the button follows it.
  useHoldExpiry(hold.expiresAt, (message) => {
    setPayState((state) => (state === 'redirecting' ? state : 'expired'));
    setFallbackMessage(message);
  });

  /**
   * A step refused. A hold that lapsed on the server says so and stays unpayable, never "could not
   * save". A hold whose payment page was opened (in another tab, or before coming back here) before
   * the visitor changed what is paid, e.g. the discount code, is kept by the server as it was paid
   * for, so the visitor starts again. Otherwise the step's own message, and Pay again.
   */
  function refused(failure: unknown, controller: AbortController, message: string) {
    if (controller.signal.aborted) return;
    const code = isApiError(failure) ? failure.code : null;
    if (code === 'BOOKING_EXPIRED') {
      clearTimers();
      setPayState('expired');
      setError(null);
      setFallbackMessage(t('payment.error.holdExpired'));
    } else if (code === 'booking/payment_started') {
      clearTimers();
      setPayState('frozen');
    } else {
      setPayState('idle');
      setError(message);
    }
  }

  async function pay() {
    setError(null);
    form.touchAll();
    const checked = checkedPayment(form.values, totals);
    if (!checked.ok) return setError(t(checked.error));
    const { customer, amount } = checked;
    const language = i18n.resolvedLanguage ?? '';
    const note = buildNote({
      lang: isLanguage(language) ? language : 'it',
      fastTrack: hold.fastTrack ?? undefined,
    });

    setPayState('submitting');
    const controller = new AbortController();
    abort.current = controller;
    timers.current.push(
      window.setTimeout(() => {
        controller.abort();
        setPayState('timedOut');
        setError(t('payment.error.timeout'));
      }, PAYMENT_TIMEOUT_MS),
    );

    try {
      const page = await submitPayment(
        { location, hold, totals, customer, discountCode, note, amount },
        { now: () => clock().toISOString(), signal: controller.signal, t },
      );
      clearTimers();
      setPayState('redirecting');
      if (typeof page === 'string') {
        timers.current.push(window.setTimeout(() => openPaymentPage(page), PAYMENT_REDIRECT_DELAY_MS));
      } else {
        navigate(`/booking-complete?transactionId=${encodeURIComponent(page.transactionId)}`);
      }
    } catch (failure) {
      const step = failure instanceof PaymentStepFailure;
      refused(
        step ? failure.cause : failure,
        controller,
        step ? failure.message : paymentErrorText(t, failure),
      );
    }
  }

  return { payState, error, fallbackMessage, pay };
}
