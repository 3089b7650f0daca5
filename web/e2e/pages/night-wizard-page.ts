import type { Locator } from '@playwright/test';
import { BookingSteps } from './booking-page';

/** The night wizard at /booking-notte/{location}. */
export class NightWizardPage extends BookingSteps {
  async open(location: string) {
    await this.page.goto(`/booking-notte/${location}`);
  }

  countdown(): Locator {
    return this.page.getByRole('timer');
  }
}
