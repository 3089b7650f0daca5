import type { LocationInput, PriceMapEuros, PriceTableEuros } from '../schemas/index';

// Demo and test locations: the six the customer spec names. Controllers run locally (the
// simulator), one port each from 11000. Prices are euros, as the location payloads carry them.

const HOURS = [3, 4, 5, 6] as const;
const DAYS = Array.from({ length: 15 }, (_, index) => index + 1);

/** Rounds to the cent so every seeded price is a valid euro amount. */
const euros = (value: number) => Math.round(value * 100) / 100;

/** A size's price table from its 3-hour price, the step per extra hour, the first day and each further day. */
function priceTable(threeHours: number, perHour: number, firstDay: number, perDay: number): PriceTableEuros {
  const hours: PriceMapEuros = Object.fromEntries(
    HOURS.map((h) => [String(h), euros(threeHours + (h - 3) * perHour)]),
  );
  const days: PriceMapEuros = Object.fromEntries(
    DAYS.map((d) => [String(d), euros(firstDay + (d - 1) * perDay)]),
  );
  return { hours, days };
}

/** Lockers numbered from 1: the standard ones first, then the large ones. */
function lockers(standard: number, large: number) {
  const numbers = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);
  return { standard: numbers(1, standard), large: numbers(standard + 1, large) };
}

const ROME_PRICING = {
  standard: priceTable(5, 1, 12, 9),
  large: priceTable(7, 1.5, 16, 12),
};

export const SEED_LOCATIONS = [
  {
    id: 'oca',
    key: 'oca',
    nome: 'Deposito Oca – Piazza del Popolo',
    indirizzo: "Via dell'Oca 41, 00186 Roma",
    timezone: 'Europe/Rome',
    recipient: '127.0.0.1',
    port: 11000,
    mastercode: '418502',
    lockerStructure: lockers(10, 4),
    maxOnline: { standard: 8, large: 3 },
    pricing: ROME_PRICING,
    endpoint: '/',
    orari: { apertura: '06:00', chiusura: '23:00' },
  },
  {
    id: 'vicolo',
    key: 'vicolo',
    nome: 'Deposito Vicolo – Trastevere',
    indirizzo: 'Vicolo del Cinque 12, 00153 Roma',
    timezone: 'Europe/Rome',
    recipient: '127.0.0.1',
    port: 11001,
    mastercode: '603917',
    lockerStructure: lockers(12, 6),
    maxOnline: { standard: 10, large: 5 },
    pricing: ROME_PRICING,
    endpoint: '/',
    orari: { apertura: '06:00', chiusura: '23:00' },
  },
  {
    id: 'termini',
    key: 'termini',
    nome: 'Deposito Termini',
    indirizzo: 'Via Giovanni Giolitti 34, 00185 Roma',
    timezone: 'Europe/Rome',
    recipient: '127.0.0.1',
    port: 11002,
    mastercode: '275368',
    lockerStructure: lockers(14, 6),
    maxOnline: { standard: 12, large: 5 },
    pricing: { standard: priceTable(6, 1, 14, 10), large: priceTable(8, 1.5, 18, 13) },
    endpoint: '/',
    orari: { apertura: '06:00', chiusura: '23:00' },
  },
  {
    id: 'areadebug',
    key: 'areadebug',
    nome: 'Area Debug',
    indirizzo: 'Via Tiburtina 1, 00185 Roma (postazione di collaudo)',
    timezone: 'Europe/Rome',
    recipient: '127.0.0.1',
    port: 11003,
    mastercode: '000111',
    lockerStructure: lockers(5, 3),
    maxOnline: { standard: 5, large: 3 },
    pricing: { standard: priceTable(1, 0.5, 2, 1), large: priceTable(1.5, 0.5, 3, 1.5) },
    endpoint: '/',
    orari: { apertura: '00:00', chiusura: '23:59' },
  },
  {
    id: 'campo',
    key: 'campo',
    nome: 'Deposito Campo – Camden',
    indirizzo: '1 Camden Lock Place, London NW1 8AF',
    timezone: 'Europe/London',
    recipient: '127.0.0.1',
    port: 11004,
    mastercode: '829104',
    lockerStructure: lockers(8, 4),
    maxOnline: { standard: 7, large: 3 },
    pricing: { standard: priceTable(6.5, 1.5, 15, 11), large: priceTable(9, 2, 20, 14.5) },
    endpoint: '/',
    orari: { apertura: '07:00', chiusura: '22:00' },
  },
  {
    id: 'magna',
    key: 'magna',
    nome: 'Deposito Magna – San Giovanni',
    indirizzo: 'Via Magna Grecia 50, 00183 Roma',
    timezone: 'Europe/Rome',
    recipient: '127.0.0.1',
    port: 11005,
    mastercode: '561730',
    lockerStructure: lockers(10, 6),
    maxOnline: { standard: 8, large: 5 },
    pricing: { standard: priceTable(4.5, 1, 11, 8.5), large: priceTable(6.5, 1.5, 15, 11.5) },
    endpoint: '/',
    orari: { apertura: '06:00', chiusura: '23:00' },
  },
] as const satisfies readonly LocationInput[];

export type SeedLocationKey = (typeof SEED_LOCATIONS)[number]['key'];
