import {
  isInFastTrackWindow,
  offeredWindowVerdict,
  type BookingFlow,
  type Duration,
  type ErrorCode,
  type OfferRefusal,
  type SystemSettings,
} from '@deposito/protocol';
import { AppError } from '../errors';
import type { TimeWindow } from '@deposito/protocol/booking/locker-availability';

/** Each refusal's code and the Italian message the server answers with (the pages show it). */
const REFUSALS: Record<OfferRefusal, { code: ErrorCode; message: string }> = {
  start_not_offered: {
    code: 'booking/start_not_offered',
    message: "L'orario di inizio scelto non è tra quelli prenotabili.",
  },
  duration_not_offered: {
    code: 'booking/duration_not_offered',
    message: 'La durata scelta non è disponibile per questo orario di inizio.',
  },
  ends_after_closing: {
    code: 'booking/ends_after_closing',
    message: "La prenotazione terminerebbe dopo l'orario di chiusura: scegli una durata più breve.",
  },
  fast_track_closed: {
    code: 'booking/fast_track_closed',
    message: "La prenotazione immediata non è disponibile a quest'ora.",
  },
};

/**
 * The server's side of the pages' choices: a hold is written only for a period the customer pages
 * offer (start slot, duration option, end of the day, fast-track hours), computed by the same
 * protocol rules in the location's zone. Throws the refusal's AppError otherwise.
 */
export function assertWindowOffered(input: {
  flow: BookingFlow;
  window: TimeWindow;
  duration: Duration;
  now: Date;
  zone: string;
  settings: Pick<SystemSettings, 'FASTTRACK_FROM' | 'FASTTRACK_TO'>;
}): void {
  const verdict = offeredWindowVerdict({
    flow: input.flow,
    startAt: input.window.startAt,
    duration: input.duration,
    now: input.now,
    zone: input.zone,
    fastTrackHours: { from: input.settings.FASTTRACK_FROM, to: input.settings.FASTTRACK_TO },
  });
  if (verdict.ok) return;
  const refusal = REFUSALS[verdict.refusal];
  throw new AppError(refusal.code, refusal.message);
}

/** Fast track's offer (`GET /api/bookings/immediate`) only inside the fast-track hours, as the pages show it. */
export function assertFastTrackOpen(
  now: Date,
  zone: string,
  settings: Pick<SystemSettings, 'FASTTRACK_FROM' | 'FASTTRACK_TO'>,
): void {
  if (isInFastTrackWindow(now, zone, { from: settings.FASTTRACK_FROM, to: settings.FASTTRACK_TO })) return;
  const refusal = REFUSALS.fast_track_closed;
  throw new AppError(refusal.code, refusal.message);
}
