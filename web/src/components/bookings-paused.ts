import { isInBlockWindow } from '@deposito/protocol/schedule/daily-windows';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';

/**
 * Whether the location's booking pages show the maintenance screen at `now`: maintenance mode
 * everywhere, this site's own maintenance, or a block window in the location's zone (the windows
 * under their new name, or the spec's older one). The server refuses holds in the same cases.
 */
export function bookingsPaused(location: PublicLocation, overrides: FrontendOverrides, now: Date): boolean {
  const windows =
    overrides.BLOCK_WINDOWS.length > 0 ? overrides.BLOCK_WINDOWS : (overrides.block_windows ?? []);
  return (
    overrides.MAINTENANCE_MODE ||
    location.manutenzione === true ||
    isInBlockWindow(now, location.timezone, windows)
  );
}
