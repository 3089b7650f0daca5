import { expect, test, type APIRequestContext } from '@playwright/test';

// What the tests do to the real cloud besides using the pages: the operator's settings through
// the admin API (as an operator would) and locker holds through the public API (as other visitors).

export const E2E_ADMIN = { email: 'e2e-admin@deposito.test', password: 'e2e-admin-password' };

export const ROME = 'Europe/Rome';

/** The calendar date `daysAhead` days from now in `zone`, `yyyy-MM-dd`. */
export function dateInZone(daysAhead: number, zone = ROME): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(
    new Date(Date.now() + daysAhead * 86_400_000),
  );
}

/** The time of day `offsetMinutes` from now in `zone`, `HH:mm` (wrapping past midnight). */
export function timeInZone(offsetMinutes: number, zone = ROME): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + offsetMinutes * 60_000));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('hour')}:${part('minute')}`;
}

/** Within this many minutes of midnight in Rome, a test waits for the new day (below). */
const MIDNIGHT_MARGIN_MINUTES = 5;

/**
 * The fast-track window `resetSettings` opens cannot wrap past midnight, so near it the window ends
 * at 23:59: a test begun in the day's last minutes would find it closed by the time it clicks (a CI
 * run at 23:58 in Rome did). Such a test waits for the new day first, its time limit raised by the
 * wait.
 */
async function outwaitRomeMidnight(): Promise<void> {
  const [hour, minute] = timeInZone(0).split(':').map(Number) as [number, number];
  const minutesLeft = 24 * 60 - (hour * 60 + minute);
  if (minutesLeft > MIDNIGHT_MARGIN_MINUTES) return;
  // Rome's offset is whole hours: its minutes turn with UTC's.
  const waitMs = (minutesLeft - 1) * 60_000 + (60_000 - (Date.now() % 60_000)) + 2_000;
  test.info().setTimeout(test.info().timeout + waitMs);
  await new Promise((resolve) => setTimeout(resolve, waitMs));
}

/**
 * Until this Rome time the daytime and night tests book today, so they see the PIN and the locker
 * on the complete page. The app still offers today for longer (the calendar until 19:45, daytime
 * starts until 20:00, night starts until 19:00); the half hour left over is the margin for a run
 * (or a slow test) that starts just before the cut-off.
 */
export const BOOK_TODAY_UNTIL = '18:30';

/**
 * The soonest day the daytime and night tests can book at `zone`, and which confirmation it leads
 * to: today while the wall clock there is before {@link BOOK_TODAY_UNTIL} (the PIN and the locker
 * are on the complete page), otherwise tomorrow (PIN and locker "on the day", customer spec §2).
 * From 23:45 on it is the day after tomorrow, so the date cannot turn into today mid-test.
 *
 * E2E_FORCE_LATER_DAY=1 takes the later-day branch whatever the hour, to check what a run after
 * 18:30 does without waiting for the evening:
 *   E2E_FORCE_LATER_DAY=1 npx playwright test e2e/customer-booking.cloud.spec.ts
 */
export function soonestBookingDay(zone = ROME): { date: string; starts: 'today' | 'later day' } {
  const now = timeInZone(0, zone);
  if (process.env.E2E_FORCE_LATER_DAY !== '1' && now < BOOK_TODAY_UNTIL) {
    return { date: dateInZone(0, zone), starts: 'today' };
  }
  return { date: dateInZone(now >= '23:45' ? 2 : 1, zone), starts: 'later day' };
}

/** `yyyy-MM-dd` + `HH:mm` in Rome as a UTC ISO instant. */
export function romeInstant(date: string, time: string): string {
  const guess = new Date(`${date}T${time}:00Z`);
  const shown = new Intl.DateTimeFormat('en-GB', {
    timeZone: ROME,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(guess);
  const [h, m] = shown.split(':').map(Number) as [number, number];
  const offsetMinutes = h * 60 + m - (Number(time.slice(0, 2)) * 60 + Number(time.slice(3)));
  return new Date(guess.getTime() - offsetMinutes * 60_000).toISOString();
}

export interface SystemSettingsPatch {
  MAINTENANCE_MODE?: boolean;
  BLOCK_WINDOWS?: Array<{ from: string; to: string }>;
  FASTTRACK_FROM?: string;
  FASTTRACK_TO?: string;
  ALWAYS_SHOW_FAST_TRACK?: boolean;
  SHOW_NIGHT_BUTTON_TEST?: boolean;
  BOOKING_EXPIRATION_MINUTES?: number;
  ALERT_BRIDGE_OFFLINE_MINUTES?: number;
}

export class CloudControl {
  private token: string | null = null;
  private readonly holds: string[] = [];

  constructor(private readonly request: APIRequestContext) {}

  private async adminToken(): Promise<string> {
    if (this.token) return this.token;
    const response = await this.request.post('/api/admin/login', { data: E2E_ADMIN });
    expect(response.status(), await response.text()).toBe(200);
    this.token = ((await response.json()) as { token: string }).token;
    return this.token;
  }

  async updateSettings(patch: SystemSettingsPatch): Promise<void> {
    const response = await this.request.post('/api/admin/settings/system', {
      data: patch,
      headers: { authorization: `Bearer ${await this.adminToken()}` },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  /**
   * Settings under which the pages do not depend on the hour the tests run at: no maintenance,
   * no block window, the fast-track window open from an hour ago to two hours from now (within today).
   */
  async resetSettings(patch: SystemSettingsPatch = {}): Promise<void> {
    await outwaitRomeMidnight();
    await this.updateSettings({
      MAINTENANCE_MODE: false,
      BLOCK_WINDOWS: [],
      // One stretch of today (the server refuses a window across midnight): near midnight it is
      // cut at 00:00 or 23:59 rather than wrapping, so the suite runs at any hour.
      FASTTRACK_FROM: timeInZone(-60) <= timeInZone(0) ? timeInZone(-60) : '00:00',
      FASTTRACK_TO: timeInZone(120) >= timeInZone(0) ? timeInZone(120) : '23:59',
      ALWAYS_SHOW_FAST_TRACK: false,
      SHOW_NIGHT_BUTTON_TEST: false,
      BOOKING_EXPIRATION_MINUTES: 15,
      ...patch,
    });
  }

  /**
   * Holds every free locker of `size` (from now for three hours, or for `window`) as other visitors
   * would; `releaseHolds` gives them back.
   */
  async holdAllLockers(
    locationKey: string,
    size: 'standard' | 'large',
    window?: { startTimeIso: string; endTimeIso: string },
  ): Promise<number> {
    let held = 0;
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const response = await this.request.post('/api/lockers/inhibit-multi', {
        data: { locationKey, dimensione: size, quantita: 1, ...window },
      });
      if (!response.ok()) break;
      const body = (await response.json()) as { success: boolean; transactionId?: string };
      if (!body.success || !body.transactionId) break;
      this.holds.push(body.transactionId);
      held += 1;
    }
    expect(held, `no ${size} locker could be held at ${locationKey}`).toBeGreaterThan(0);
    return held;
  }

  /**
   * Frees every `size` locker of `locationKey` as an operator would ("Annulla prenotazione",
   * confirmed, no refund): the paid bookings earlier specs left on them are cancelled, so a test
   * that needs such a locker finds one whatever ran before it.
   */
  async cancelBookingsOn(locationKey: string, size: 'standard' | 'large'): Promise<void> {
    const headers = { authorization: `Bearer ${await this.adminToken()}` };
    const state = await this.request.get(`/api/lockers/full-state?location=${locationKey}`, { headers });
    expect(state.status(), await state.text()).toBe(200);
    // Every locker of the size, free-looking ones too: a booking starting later today keeps its
    // PIN on the controller while the locker still shows available.
    const lockers = (await state.json()) as Array<{ id: number; size: string }>;
    for (const locker of lockers.filter((l) => l.size === size)) {
      const response = await this.request.post('/api/lockers/unbook-soap', {
        data: { location: locationKey, lockerId: locker.id, confirm: true, refund: false, reason: 'e2e' },
        headers,
      });
      expect(response.status(), await response.text()).toBeLessThan(300);
    }
  }

  /**
   * A paid stay of one standard locker at `locationKey` for the whole of today (Rome midnight to
   * midnight), made as an operator's test booking: a stay in progress at whatever hour the suite
   * runs, which a visitor may extend by whole days. Its reference and a private link's token.
   */
  async paidStayToday(locationKey: string, email: string): Promise<{ transactionId: string; token: string }> {
    const headers = { authorization: `Bearer ${await this.adminToken()}` };
    const created = await this.request.post('/api/system/admin/create-test-booking', {
      headers,
      data: {
        location: locationKey,
        status: 'confirmed',
        type: 'standard',
        pin: String(200_000 + Math.floor(Math.random() * 700_000)),
        startTime: romeInstant(dateInZone(0), '00:00'),
        endTime: romeInstant(dateInZone(1), '00:00'),
        nome: 'Giulia',
        cognome: 'Rossi',
        email,
        note: 'lang:it',
        paidAt: new Date().toISOString(),
        priceOriginal: 12,
        priceDiscounted: 12,
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const { transactionId } = (await created.json()) as { transactionId: string };
    const link = await this.request.post(`/api/bookings/${transactionId}/my-booking-link`);
    expect(link.status(), await link.text()).toBe(201);
    return { transactionId, token: ((await link.json()) as { token: string }).token };
  }

  async releaseHolds(): Promise<void> {
    for (const transactionId of this.holds.splice(0)) {
      await this.request.post(`/api/bookings/${transactionId}/cancel`);
    }
  }
}
