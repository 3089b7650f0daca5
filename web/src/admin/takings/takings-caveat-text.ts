// The words the takings page and its PDF report use for what the figures leave out.
import { formatEuros, type ExcludedTestBookings } from '@deposito/protocol';

/** For a location whose kiosk payments of the month could not be read. */
export function totemMissingText(locationName: string): string {
  return `Dati totem non disponibili per ${locationName}: totale incompleto`;
}

/** `Prenotazioni di test (escluse): 2 · 45,00 €`. */
export function testBookingsText(tests: ExcludedTestBookings): string {
  return `Prenotazioni di test (escluse): ${tests.count} · ${formatEuros(tests.cents)}`;
}
