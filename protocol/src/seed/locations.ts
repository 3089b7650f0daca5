import type { LocationInput, OpeningHours, PriceMapEuros, PriceTableEuros } from '../schemas/index';

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

/** One size at a site: how many lockers, how many of them can be booked online, and their prices. */
interface SizeSeed {
  lockers: number;
  online: number;
  prices: PriceTableEuros;
}

/**
 * The demo site `key`, called `nome`, at `indirizzo`, whose controller opens with `mastercode`. It is
 * in Rome and open 06:00 to 23:00 unless `site` says otherwise; its controller runs on this machine.
 */
function seedLocation<const K extends string>(
  key: K,
  nome: string,
  indirizzo: string,
  mastercode: string,
  site: { standard: SizeSeed; large: SizeSeed; timezone?: LocationInput['timezone']; orari?: OpeningHours },
) {
  const { standard, large } = site;
  return {
    id: key,
    key,
    nome,
    indirizzo,
    timezone: site.timezone ?? 'Europe/Rome',
    recipient: '127.0.0.1',
    mastercode,
    lockerStructure: lockers(standard.lockers, large.lockers),
    maxOnline: { standard: standard.online, large: large.online },
    pricing: { standard: standard.prices, large: large.prices },
    endpoint: '/',
    orari: site.orari ?? { apertura: '06:00', chiusura: '23:00' },
  };
}

/** In seed order; each controller has its own port, from 11000. */
export const SEED_LOCATIONS = [
  seedLocation('oca', 'Deposito Oca – Piazza del Popolo', "Via dell'Oca 41, 00186 Roma", '418502', {
    standard: { lockers: 10, online: 8, prices: ROME_PRICING.standard },
    large: { lockers: 4, online: 3, prices: ROME_PRICING.large },
  }),
  seedLocation('vicolo', 'Deposito Vicolo – Trastevere', 'Vicolo del Cinque 12, 00153 Roma', '603917', {
    standard: { lockers: 12, online: 10, prices: ROME_PRICING.standard },
    large: { lockers: 6, online: 5, prices: ROME_PRICING.large },
  }),
  seedLocation('termini', 'Deposito Termini', 'Via Giovanni Giolitti 34, 00185 Roma', '275368', {
    standard: { lockers: 14, online: 12, prices: priceTable(6, 1, 14, 10) },
    large: { lockers: 6, online: 5, prices: priceTable(8, 1.5, 18, 13) },
  }),
  seedLocation('areadebug', 'Area Debug', 'Via Tiburtina 1, 00185 Roma (postazione di collaudo)', '000111', {
    standard: { lockers: 5, online: 5, prices: priceTable(1, 0.5, 2, 1) },
    large: { lockers: 3, online: 3, prices: priceTable(1.5, 0.5, 3, 1.5) },
    orari: { apertura: '00:00', chiusura: '23:59' },
  }),
  seedLocation('campo', 'Deposito Campo – Camden', '1 Camden Lock Place, London NW1 8AF', '829104', {
    standard: { lockers: 8, online: 7, prices: priceTable(6.5, 1.5, 15, 11) },
    large: { lockers: 4, online: 3, prices: priceTable(9, 2, 20, 14.5) },
    timezone: 'Europe/London',
    orari: { apertura: '07:00', chiusura: '22:00' },
  }),
  seedLocation('magna', 'Deposito Magna – San Giovanni', 'Via Magna Grecia 50, 00183 Roma', '561730', {
    standard: { lockers: 10, online: 8, prices: priceTable(4.5, 1, 11, 8.5) },
    large: { lockers: 6, online: 5, prices: priceTable(6.5, 1.5, 15, 11.5) },
  }),
].map((location, index) => ({ ...location, port: 11000 + index })) satisfies LocationInput[];

export type SeedLocationKey = (typeof SEED_LOCATIONS)[number]['key'];
