import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { MyBookingResponse } from '@deposito/protocol/api/my-booking';
import { renderApp } from '../../test/render-app';
import { apiError, fakeApi, htmlPage } from '../../test/fake-api';

// The "Extend" section of the visitor's booking page: the server's offer as choices, the payment
// page for the chosen one, and every refusal explained (or the section hidden when there is none).

const TOKEN = 'A'.repeat(43);
const READ = `GET /api/my-booking/${TOKEN}`;
const EXTEND = `POST /api/my-booking/${TOKEN}/extend`;

function booking(overrides: Partial<MyBookingResponse> = {}): MyBookingResponse {
  return {
    reference: 'BOOKING-abcdefghijklmnopqrstuvwx',
    status: 'confirmed',
    location: {
      name: 'Deposito Oca',
      address: "Via dell'Oca 41, Roma",
      timezone: 'Europe/Rome',
      openingHours: { opening: '06:00', closing: '23:00' },
      mapsUrl: 'https://www.google.com/maps/search/?api=1&query=Oca',
    },
    size: 'standard',
    quantity: 1,
    lockers: [3],
    startIso: '2026-03-27T11:00:00.000Z',
    endIso: '2026-03-27T14:00:00.000Z',
    paidCents: 550,
    pin: '482913',
    pinExpectedFrom: null,
    receipt: true,
    googleCalendarUrl: 'https://calendar.google.com/calendar/render?action=TEMPLATE',
    cancellation: { policy: 'future_days_until_start', allowed: false, refusal: 'same_day' },
    extension: {
      allowed: true,
      refusal: null,
      options: [
        {
          duration: { value: 4, unit: 'hours' },
          endIso: '2026-03-27T15:00:00.000Z',
          priceCents: 100,
          totalCents: 100,
        },
        {
          duration: { value: 5, unit: 'hours' },
          endIso: '2026-03-27T16:00:00.000Z',
          priceCents: 200,
          totalCents: 200,
        },
      ],
    },
    extensions: [],
    ...overrides,
  };
}

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:payment') }));
});

const section = () => screen.findByRole('region', { name: 'Extend' });

describe('extending from the booking page', () => {
  it("offers the server's longer stays, and opens the payment page for the one chosen", async () => {
    const api = fakeApi({ [READ]: booking(), [EXTEND]: htmlPage() });
    await renderApp({ path: `/my-booking/${TOKEN}`, language: 'en' });
    await section();
    const first = screen.getByRole('button', { name: /\+1 hour/ });
    const second = screen.getByRole('button', { name: /\+2 hours/ });
    expect(first.getAttribute('aria-pressed')).toBe('true');
    expect(first.textContent).toContain('Until 16:00');
    fireEvent.click(second);
    expect(second.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Pay €2.00 and extend' }));
    await screen.findByText('Opening the payment page…');
    expect(api.callsTo('POST', `/api/my-booking/${TOKEN}/extend`)[0]?.body).toEqual({
      endIso: '2026-03-27T16:00:00.000Z',
    });
  });

  it('explains a refusal from the server (the locker was taken meanwhile)', async () => {
    fakeApi({
      [READ]: booking(),
      [EXTEND]: apiError(409, 'my_booking/extension_locker_taken'),
    });
    await renderApp({ path: `/my-booking/${TOKEN}`, language: 'en' });
    await section();
    fireEvent.click(screen.getByRole('button', { name: 'Pay €1.00 and extend' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your locker is booked by someone else right after your end: it cannot be extended.',
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Pay €1.00 and extend' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
  });

  it('says why there is nothing to offer, or that a later-day booking extends on the day', async () => {
    fakeApi({
      [READ]: booking({ extension: { allowed: false, refusal: 'location_closes', options: [] } }),
    });
    await renderApp({ path: `/my-booking/${TOKEN}`, language: 'en' });
    expect((await section()).textContent).toContain('already as long as it can be');
    cleanup();

    fakeApi({
      [READ]: booking({ extension: { allowed: false, refusal: 'amount_too_high', options: [] } }),
    });
    await renderApp({ path: `/my-booking/${TOKEN}`, language: 'en' });
    expect((await section()).textContent).toContain('more than can be paid online');
    cleanup();

    fakeApi({
      [READ]: booking({
        status: 'scheduled',
        pin: null,
        extension: { allowed: false, refusal: 'not_in_progress', options: [] },
      }),
    });
    await renderApp({ path: `/my-booking/${TOKEN}`, language: 'en' });
    expect((await section()).textContent).toContain('from the day it starts');
  });

  it('hides the section for a cancelled booking, and lists the extensions paid', async () => {
    fakeApi({
      [READ]: booking({
        status: 'refunded',
        pin: null,
        extension: { allowed: false, refusal: 'not_in_progress', options: [] },
        extensions: [
          {
            reference: 'BOOKING-bcdefghijklmnopqrstuvwxy',
            status: 'refunded',
            startIso: '2026-03-27T14:00:00.000Z',
            endIso: '2026-03-27T15:00:00.000Z',
            paidCents: 100,
          },
        ],
      }),
    });
    await renderApp({ path: `/my-booking/${TOKEN}`, language: 'en' });
    expect((await screen.findByTestId('my-booking-extensions')).textContent).toContain('€1.00');
    expect(screen.queryByRole('region', { name: 'Extend' })).toBeNull();
  });
});
