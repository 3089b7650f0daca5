import type { Insertable, Kysely, Updateable } from 'kysely';
import type { LocationPricing, LockerSize } from '@deposito/protocol';
import type { Database, LocationRow, LocationTable } from './database';
import { toEditStamp, type EditStamp } from './edit-stamp';
import { PreparedQuery } from './prepared-query';
import { ReadCache } from './read-cache';
import { fromJson, toBoolean, toCount, toDate } from './values';

export interface LocationRecord {
  key: string;
  name: string;
  address: string;
  /** IANA zone the location's rules are reasoned in. */
  zone: string;
  /** Most lockers of each size sold online at the same instant. */
  maxOnline: Record<LockerSize, number>;
  /** Price tables in integer cents. */
  pricing: LocationPricing;
  openingHours: { opening: string; closing: string };
  /** An operator paused this site's bookings; the other sites keep selling. */
  maintenance: boolean;
  controller: {
    recipient: string | null;
    port: number | null;
    key: string | null;
    mastercode: string | null;
    endpoint: string | null;
  };
  createdAt: Date;
  updatedAt: Date;
  /** Edit version and the operator who saved last (store/edit-stamp.ts). */
  edit: EditStamp;
}

/** A location to save; `maintenance` left out keeps what is stored (off for a new site). */
export type NewLocation = Omit<LocationRecord, 'createdAt' | 'updatedAt' | 'edit' | 'maintenance'> & {
  maintenance?: boolean;
};

/** Some fields of a location, for an operator's save that writes only what it changed. */
export type LocationChanges = Partial<Omit<NewLocation, 'key' | 'controller'>> & {
  controller?: Partial<NewLocation['controller']>;
};

type LocationColumns = Omit<Updateable<LocationTable>, 'key' | 'created_at' | 'updated_at' | 'version'>;

/** The columns `changes` sets, and no other. */
export function locationColumns(changes: LocationChanges): LocationColumns {
  const columns: LocationColumns = {};
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.address !== undefined) columns.address = changes.address;
  if (changes.zone !== undefined) columns.zone = changes.zone;
  if (changes.maxOnline) {
    columns.max_online_standard = changes.maxOnline.standard;
    columns.max_online_large = changes.maxOnline.large;
  }
  if (changes.pricing) columns.pricing = JSON.stringify(changes.pricing);
  if (changes.openingHours) {
    columns.opening_time = changes.openingHours.opening;
    columns.closing_time = changes.openingHours.closing;
  }
  if (changes.maintenance !== undefined) columns.maintenance = changes.maintenance;
  const controller = changes.controller ?? {};
  if (controller.recipient !== undefined) columns.controller_recipient = controller.recipient;
  if (controller.port !== undefined) columns.controller_port = controller.port;
  if (controller.key !== undefined) columns.controller_key = controller.key;
  if (controller.mastercode !== undefined) columns.controller_mastercode = controller.mastercode;
  if (controller.endpoint !== undefined) columns.endpoint = controller.endpoint;
  return columns;
}

export interface LockerRecord {
  id: number;
  locationKey: string;
  number: number;
  size: LockerSize;
  inService: boolean;
}

export interface LocationRepository {
  list(): Promise<LocationRecord[]>;
  /**
   * The location, from a short-lived cache (`READ_CACHE_TTL_MS`): every hold reads it. This store's
   * own writes (`save`, and the admin repository's delete) drop the cached entry at once.
   */
  get(key: string): Promise<LocationRecord | null>;
  count(): Promise<number>;
  /** Inserts the location or replaces every field of an existing one. */
  save(location: NewLocation, now: Date): Promise<void>;
  /** The location's lockers, lowest number first. */
  lockers(key: string): Promise<LockerRecord[]>;
  /** Adds lockers that do not exist yet; an existing number keeps its row (and its reservations). */
  addLockers(key: string, lockers: ReadonlyArray<{ number: number; size: LockerSize }>): Promise<void>;
  setLockerInService(key: string, number: number, inService: boolean): Promise<boolean>;
}

function toLocation(row: LocationRow): LocationRecord {
  return {
    key: row.key,
    name: row.name,
    address: row.address,
    zone: row.zone,
    maxOnline: { standard: row.max_online_standard, large: row.max_online_large },
    pricing: fromJson<LocationPricing>(row.pricing),
    openingHours: { opening: row.opening_time, closing: row.closing_time },
    maintenance: toBoolean(row.maintenance),
    controller: {
      recipient: row.controller_recipient,
      port: row.controller_port,
      key: row.controller_key,
      mastercode: row.controller_mastercode,
      endpoint: row.endpoint,
    },
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    edit: toEditStamp(row),
  };
}

function lockersQuery(db: Kysely<Database>) {
  return new PreparedQuery(db, ['key'], (q, p: { key: string }) =>
    q.selectFrom('lockers').selectAll().where('location_key', '=', p.key).orderBy('number'),
  );
}

export class KyselyLocationRepository implements LocationRepository {
  /** Read on every operator command and locker grid: prepared once (prepared-query.ts). */
  private readonly lockersOf: ReturnType<typeof lockersQuery>;

  constructor(
    private readonly db: Kysely<Database>,
    /** Shared with the location admin repository, whose writes drop entries too. */
    private readonly cache: ReadCache<LocationRecord | null> = new ReadCache(),
  ) {
    this.lockersOf = lockersQuery(db);
  }

  async list(): Promise<LocationRecord[]> {
    const rows = await this.db.selectFrom('locations').selectAll().orderBy('key').execute();
    return rows.map(toLocation);
  }

  get(key: string): Promise<LocationRecord | null> {
    return this.cache.get(key, async () => {
      const row = await this.db.selectFrom('locations').selectAll().where('key', '=', key).executeTakeFirst();
      return row ? toLocation(row) : null;
    });
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('locations')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toCount(row.n as string | number);
  }

  async save(location: NewLocation, now: Date): Promise<void> {
    const { key, ...changes } = location;
    // A full location sets every column (`changes` is the whole record here).
    const fields = { ...locationColumns(changes), updated_at: now } as Omit<
      Insertable<LocationTable>,
      'key' | 'created_at'
    >;
    await this.db
      .insertInto('locations')
      .values({ key, created_at: now, ...fields })
      .onConflict((oc) => oc.column('key').doUpdateSet(fields))
      .execute();
    this.cache.invalidate(key);
  }

  async lockers(key: string): Promise<LockerRecord[]> {
    const rows = await this.lockersOf.rows({ key });
    return rows.map((row) => ({
      id: row.id,
      locationKey: row.location_key,
      number: row.number,
      size: row.size as LockerSize,
      inService: toBoolean(row.in_service),
    }));
  }

  async addLockers(key: string, lockers: ReadonlyArray<{ number: number; size: LockerSize }>): Promise<void> {
    if (lockers.length === 0) return;
    await this.db
      .insertInto('lockers')
      .values(lockers.map((l) => ({ location_key: key, number: l.number, size: l.size, in_service: true })))
      .onConflict((oc) => oc.columns(['location_key', 'number']).doNothing())
      .execute();
  }

  async setLockerInService(key: string, number: number, inService: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('lockers')
      .set({ in_service: inService })
      .where('location_key', '=', key)
      .where('number', '=', number)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
