import { expect, type Locator, type Page } from '@playwright/test';

/** The sandbox gateway's hosted card page (/sandbox-pay), as a visitor fills it. */
export class SandboxPaymentPage {
  static readonly APPROVED_CARD = '4242 4242 4242 4242';
  static readonly DECLINED_CARD = '4000 0000 0000 0002';

  constructor(readonly page: Page) {}

  async waitUntilShown(): Promise<void> {
    await this.page.waitForURL(/\/sandbox-pay/, { timeout: 20_000 });
    await expect(this.page.getByLabel('Numero della carta')).toBeVisible();
  }

  /** The amount the card is charged, as the gateway shows it. */
  amount(): Locator {
    return this.page.locator('dd.total');
  }

  async payWithTestCard(card = SandboxPaymentPage.APPROVED_CARD): Promise<void> {
    await this.page.getByLabel('Titolare della carta').fill('Giulia Rossi');
    await this.page.getByLabel('Numero della carta').fill(card);
    await this.page.getByLabel('Scadenza (MM/AA)').fill('12/34');
    await this.page.getByLabel('CVV').fill('123');
    await this.page.getByRole('button', { name: /^Paga / }).click();
  }
}

/** The page the gateway sends the visitor back to. */
export class BookingCompletePage {
  constructor(readonly page: Page) {}

  async expectConfirmed(): Promise<void> {
    await this.page.waitForURL(/\/booking-complete/, { timeout: 20_000 });
    await expect(this.page.getByRole('heading', { name: 'Prenotazione confermata' })).toBeVisible();
  }

  /** A booking starting today: its six-digit PIN. */
  async expectPin(): Promise<void> {
    await expect(this.page.locator('.confirmation-pin')).toHaveText(/^\d{6}$/);
  }

  /** A booking starting today: the number(s) of the locker(s) it opens. */
  async expectLockerIds(): Promise<void> {
    await expect(this.lockerIds()).toHaveText(/^\d+(, \d+)*$/);
  }

  /** A booking for a later day: PIN and locker arrive on the day (customer spec §2). */
  async expectPinOnTheDay(): Promise<void> {
    await expect(this.page.getByRole('status')).toHaveText(
      /assegnati e inviati il giorno della prenotazione/,
    );
    await expect(this.page.locator('.confirmation-pin')).toHaveCount(0);
    await expect(this.lockerIds()).toHaveCount(0);
  }

  /** The locker numbers in the recap list (the definition after "Numero locker"). */
  lockerIds(): Locator {
    return this.value('Numero locker');
  }

  /** What the card was charged (the definition after "Importo pagato"). */
  paidAmount(): Locator {
    return this.value('Importo pagato');
  }

  /** A declined card: not confirmed, nothing charged, and a button to pay again. */
  async expectDeclined(): Promise<void> {
    await this.page.waitForURL(/\/booking-complete/, { timeout: 20_000 });
    await expect(this.page.getByRole('heading', { name: 'Pagamento rifiutato' })).toBeVisible();
    await expect(this.page.getByText(/non ti è stato addebitato nulla/)).toBeVisible();
    await expect(this.retryButton()).toBeEnabled();
    await expect(this.page.getByText('Prenotazione confermata')).toHaveCount(0);
    await expect(this.page.locator('.confirmation-pin')).toHaveCount(0);
  }

  retryButton(): Locator {
    return this.page.getByRole('button', { name: 'Riprova il pagamento' });
  }

  private value(label: string): Locator {
    return this.page
      .locator('dt', { hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]');
  }
}
