import { expect, type Locator, type Page } from '@playwright/test';

/** The visitor's own booking page, `/my-booking/{token}`. */
export class MyBookingPage {
  constructor(readonly page: Page) {}

  heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  status(): Locator {
    return this.page.getByTestId('my-booking-status');
  }

  pin(): Locator {
    return this.page.getByTestId('my-booking-pin');
  }

  reference(): Locator {
    return this.page.getByTestId('my-booking-reference');
  }

  qrCode(): Locator {
    return this.page.getByTestId('booking-qr');
  }

  mapLink(): Locator {
    return this.page.getByRole('link', { name: /Apri nelle mappe|Open in maps/ });
  }

  calendarFileLink(): Locator {
    return this.page.getByRole('link', { name: /\.ics/ });
  }

  googleCalendarLink(): Locator {
    return this.page.getByRole('link', { name: 'Google Calendar' });
  }

  /** The QR image is drawn and has a real size (not a broken image). */
  async expectQrCode(): Promise<void> {
    await expect(this.qrCode()).toBeVisible();
    await expect
      .poll(() => this.qrCode().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }

  async switchTo(language: 'English' | 'Italiano'): Promise<void> {
    await this.page.getByRole('button', { name: language }).first().click();
  }
}
