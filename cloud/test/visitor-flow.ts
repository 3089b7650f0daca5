// A visitor's whole booking over real HTTP, for tests that drive a cloud from outside (processes,
// a balancer): hold a locker, open the payment page, pay with the sandbox's test card.
import { DateTime } from 'luxon';
import { payOnSandbox } from './sandbox-card';
import { TEST_PAYER as PAYER } from './builders';

/** Lockers sold online per Rome seed site and size. */
const ROME_SLOTS = [
  ['oca', 'standard', 8],
  ['oca', 'large', 3],
  ['vicolo', 'standard', 10],
  ['vicolo', 'large', 5],
  ['termini', 'standard', 12],
  ['termini', 'large', 5],
] as const;
const PER_DAY = ROME_SLOTS.reduce((sum, [, , count]) => sum + count, 0);

/**
 * The n-th booking's hold request: a locker sold online at a Rome seed site, 10:00–13:00 on a day
 * `daysAhead` or more from today (the real clock), so any number of calls never run out of lockers.
 */
export function futureHold(n: number, daysAhead = 5) {
  let index = n % PER_DAY;
  const [locationKey, size] = ROME_SLOTS.find(([, , count]) => (index -= count) < 0)!;
  const start = DateTime.now()
    .setZone('Europe/Rome')
    .startOf('day')
    .plus({ days: daysAhead + Math.floor(n / PER_DAY) })
    .set({ hour: 10 });
  return {
    locationKey,
    dimensione: size,
    quantita: 1,
    startTimeIso: start.toUTC().toISO()!,
    endTimeIso: start.plus({ hours: 3 }).toUTC().toISO()!,
  };
}

export interface VisitorFlow {
  transactionId?: string;
  /** The visitor came back from the payment page told it was paid. */
  paid: boolean;
  /** Where it broke (a status, or the network error), when it did. */
  error?: string;
}

/** Hold, payment page, card: what a visitor's browser does, against the cloud at `url`. */
export async function bookAndPay(url: string, hold: ReturnType<typeof futureHold>): Promise<VisitorFlow> {
  let transactionId: string | undefined;
  try {
    const held = await fetch(`${url}/api/lockers/inhibit-multi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hold),
    });
    const heldText = await held.text();
    if (held.status !== 200) return { paid: false, error: `hold ${held.status} ${heldText}` };
    transactionId = (JSON.parse(heldText) as { transactionId: string }).transactionId;
    const created = await fetch(`${url}/api/payments/create-payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...PAYER, transactionId }),
    });
    const html = await created.text();
    if (created.status !== 200)
      return { transactionId, paid: false, error: `create-payment ${created.status}` };
    const paid = await payOnSandbox(html);
    if (paid.status !== 303) return { transactionId, paid: false, error: `sandbox pay ${paid.status}` };
    return { transactionId, paid: true };
  } catch (error) {
    return { transactionId, paid: false, error: String(error) };
  }
}
