import { expect, type Locator, type Page } from '@playwright/test';

export type DurationValue = `hours:${number}` | `days:${number}`;

/** The value of the first option `select` offers (the placeholder, value "", is not one). */
export async function firstOffered(select: Locator): Promise<string> {
  const value = await select.locator('option:not([value=""])').first().getAttribute('value');
  expect(value, 'the list offers no option').toBeTruthy();
  return value!;
}

/** The first duration the duration list offers: the shortest hour option, or one day if none. */
export async function firstOfferedDuration(page: Page): Promise<DurationValue> {
  const value = await firstOffered(page.getByLabel(/^(Durata|Duration)$/));
  expect(value).toMatch(/^(hours|days):\d+$/);
  return value as DurationValue;
}

/** What a visitor chooses from the calendar to the summary. */
export interface Stay {
  date: string;
  time: string;
  duration: DurationValue;
  size: RegExp;
  quantity: number;
}

/** The steps after the calendar, as the accessibility checks name them. */
export type StepName = 'start time' | 'duration' | 'sizes' | 'quantity';

/** The steps the daytime flow and the night wizard share: day, start time, duration, size, quantity. */
export class BookingSteps {
  constructor(readonly page: Page) {}

  async continue() {
    await this.page.getByRole('button', { name: /^(Continua|Continue)$/ }).click();
  }

  async chooseDate(date: string) {
    await this.page.getByLabel(/^(Data|Date)$/).fill(date);
    await this.continue();
  }

  async chooseTime(time: string) {
    await this.page.getByLabel(/Orario di inizio|Start time/).selectOption(time);
    // Picking only selects it (WCAG 3.2.2); Continue moves on.
    await this.continue();
  }

  /**
   * The first start time the time list offers (today: the next quarter hour, from 06:00 on in the
   * daytime flow, none from 19:00 in the night wizard).
   */
  async firstOfferedTime(): Promise<string> {
    return firstOffered(this.page.getByLabel(/Orario di inizio|Start time/));
  }

  async chooseDuration(value: DurationValue) {
    await this.page.getByLabel(/^(Durata|Duration)$/).selectOption(value);
    await this.continue();
  }

  async chooseSize(size: RegExp) {
    await this.page.getByRole('button', { name: size }).click();
  }

  async chooseQuantity(quantity: number) {
    await this.page.locator('.choice .choice-number', { hasText: String(quantity) }).click();
  }

  /**
   * From the calendar to the summary: the day, the start, the duration, the size and the quantity;
   * `onStep` runs on each step after the calendar as it opens (an accessibility check, say).
   */
  async chooseStay(stay: Stay, onStep: (step: StepName) => Promise<void> = async () => undefined) {
    await this.chooseDate(stay.date);
    await onStep('start time');
    await this.chooseTime(stay.time);
    await onStep('duration');
    await this.chooseDuration(stay.duration);
    await onStep('sizes');
    await this.chooseSize(stay.size);
    await onStep('quantity');
    await this.chooseQuantity(stay.quantity);
  }
}

/** The daytime booking flow at /{location}, step by step. */
export class BookingPage extends BookingSteps {
  async open(location: string, query = '') {
    await this.page.goto(`/${location}${query}`);
  }

  get bookButton(): Locator {
    return this.page.getByRole('button', { name: /Prenota un locker|Book a locker/ });
  }

  async startBooking() {
    await this.bookButton.click();
  }

  async fillCustomer(customer: { name: string; surname: string; email: string; phone: string }) {
    await this.page
      .getByLabel(/^(Nome|First name)$/)
      .first()
      .fill(customer.name);
    await this.page.getByLabel(/^(Cognome|Last name)$/).fill(customer.surname);
    await this.page.getByLabel(/^(Email)$/).fill(customer.email);
    await this.page.getByLabel(/Conferma email|Confirm email/).fill(customer.email);
    await this.page.getByRole('textbox', { name: /Telefono|Phone/ }).fill(customer.phone);
  }

  summaryHeading(): Locator {
    return this.page.getByRole('heading', { name: /Riepilogo e pagamento|Summary and payment/ });
  }
}
