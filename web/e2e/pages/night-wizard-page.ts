import type { Locator, Page } from '@playwright/test';
import { firstOffered, type DurationValue } from './booking-page';

/** The night wizard at /booking-notte/{location}. */
export class NightWizardPage {
  constructor(readonly page: Page) {}

  async open(location: string) {
    await this.page.goto(`/booking-notte/${location}`);
  }

  async chooseDate(date: string) {
    await this.page.getByLabel(/^(Data|Date)$/).fill(date);
    await this.page.getByRole('button', { name: /^(Continua|Continue)$/ }).click();
  }

  async chooseTime(time: string) {
    await this.page.getByLabel(/Orario di inizio|Start time/).selectOption(time);
    // Picking only selects it (WCAG 3.2.2); Continue moves on.
    await this.page.getByRole('button', { name: /^(Continua|Continue)$/ }).click();
  }

  /** The first start time the time list offers (today: the next quarter hour, none from 19:00). */
  async firstOfferedTime(): Promise<string> {
    return firstOffered(this.page.getByLabel(/Orario di inizio|Start time/));
  }

  async chooseDuration(value: DurationValue) {
    await this.page.getByLabel(/^(Durata|Duration)$/).selectOption(value);
    await this.page.getByRole('button', { name: /^(Continua|Continue)$/ }).click();
  }

  async chooseSize(size: RegExp) {
    await this.page.getByRole('button', { name: size }).click();
  }

  async chooseQuantity(quantity: number) {
    await this.page.locator('.choice .choice-number', { hasText: String(quantity) }).click();
  }

  countdown(): Locator {
    return this.page.getByRole('timer');
  }
}
