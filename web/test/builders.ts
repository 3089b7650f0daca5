import type { FrontendOverrides, PublicLocation } from '@deposito/protocol';

export function buildPublicLocation(overrides: Partial<PublicLocation> = {}): PublicLocation {
  return {
    key: 'vicolo',
    nome: 'Deposito Vicolo – Trastevere',
    indirizzo: 'Vicolo del Cedro 1, Roma',
    timezone: 'Europe/Rome',
    orari: { apertura: '06:00', chiusura: '23:00' },
    hourlyPrices: {
      standard: { '3': 5, '4': 6, '5': 7, '6': 8 },
      large: { '3': 7, '4': 8.5, '5': 9.5, '6': 11 },
    },
    dailyPrices: {
      standard: { '1': 12, '2': 22, '3': 30 },
      large: { '1': 16, '2': 30, '3': 42 },
    },
    ...overrides,
  };
}

export function buildOverrides(overrides: Partial<FrontendOverrides> = {}): FrontendOverrides {
  return {
    showNightButtonTest: false,
    ALWAYS_SHOW_FAST_TRACK: false,
    fastTrackHours: { from: '06:00', to: '21:00' },
    BLOCK_WINDOWS: [],
    MAINTENANCE_MODE: false,
    ...overrides,
  };
}
