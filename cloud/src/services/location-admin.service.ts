import {
  DEFAULT_CONTROLLER_PORT,
  LOCKER_SIZES,
  centsToEuros,
  type Location,
  type LocationPricing,
  type LocationPricingEuros,
  type LocationSummary,
  type LocationTimezone,
  type LockerSize,
  type LockerStructure,
  type OpeningHours,
  pricingToCents,
} from '@deposito/protocol';
import type { z } from 'zod';
import type { createLocationRequestSchema, updateLocationRequestSchema } from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { LocationEdit } from '../store/location-admin.repository';
import type {
  LocationChanges,
  LocationRecord,
  LockerRecord,
  NewLocation,
} from '../store/location.repository';
import type { Store } from '../store/store';
import { describeChanges, type AdminActivityLog } from './admin-activity.service';
import type { AdminIdentity } from './auth.service';
import { staleEditError } from './stale-edit';

export type CreateLocationInput = z.output<typeof createLocationRequestSchema>;
export type UpdateLocationInput = z.output<typeof updateLocationRequestSchema>;

// Stored values a location saved without controller settings falls back to when shown.
const FALLBACK_RECIPIENT = '127.0.0.1';
const FALLBACK_MASTERCODE = '0000';

function pricingToEuros(pricing: LocationPricing): LocationPricingEuros {
  const table = (size: LockerSize) => ({
    hours: Object.fromEntries(
      Object.entries(pricing[size]?.hours ?? {}).map(([k, v]) => [k, centsToEuros(v)]),
    ),
    days: Object.fromEntries(Object.entries(pricing[size]?.days ?? {}).map(([k, v]) => [k, centsToEuros(v)])),
  });
  return { standard: table('standard'), large: table('large') };
}

function structureOf(lockers: readonly LockerRecord[]): LockerStructure {
  const numbers = (size: LockerSize) =>
    lockers
      .filter((l) => l.size === size)
      .map((l) => l.number)
      .sort((a, b) => a - b);
  return { standard: numbers('standard'), large: numbers('large') };
}

function lockerList(structure: LockerStructure): Array<{ number: number; size: LockerSize }> {
  return LOCKER_SIZES.flatMap((size) => structure[size].map((number) => ({ number, size })));
}

/** The location as the admin area reads it (admin spec §3). `id` and `key` are the same identifier. */
export function toAdminLocation(record: LocationRecord, lockers: readonly LockerRecord[]): Location {
  return {
    id: record.key,
    key: record.key,
    nome: record.name,
    indirizzo: record.address,
    timezone: record.zone as LocationTimezone,
    recipient: record.controller.recipient ?? FALLBACK_RECIPIENT,
    port: record.controller.port ?? DEFAULT_CONTROLLER_PORT,
    mastercode: record.controller.mastercode ?? FALLBACK_MASTERCODE,
    lockerStructure: structureOf(lockers),
    maxOnline: { ...record.maxOnline },
    pricing: pricingToEuros(record.pricing),
    endpoint: record.controller.endpoint ?? '/',
    orari: { apertura: record.openingHours.opening, chiusura: record.openingHours.closing },
    manutenzione: record.maintenance,
    version: record.edit.version,
  };
}

/** The stored fields a PATCH names, and no other (a field left out is never rewritten). */
function changesOf(patch: UpdateLocationInput): LocationChanges {
  return {
    ...(patch.nome !== undefined && { name: patch.nome }),
    ...(patch.indirizzo !== undefined && { address: patch.indirizzo }),
    ...(patch.timezone !== undefined && { zone: patch.timezone }),
    ...(patch.maxOnline !== undefined && { maxOnline: { ...patch.maxOnline } }),
    ...(patch.pricing !== undefined && { pricing: pricingToCents(patch.pricing) }),
    ...(patch.orari !== undefined && {
      openingHours: { opening: patch.orari.apertura, closing: patch.orari.chiusura },
    }),
    ...(patch.manutenzione !== undefined && { maintenance: patch.manutenzione }),
    controller: {
      ...(patch.recipient !== undefined && { recipient: patch.recipient }),
      ...(patch.port !== undefined && { port: patch.port }),
      ...(patch.mastercode !== undefined && { mastercode: patch.mastercode }),
      ...(patch.endpoint !== undefined && { endpoint: patch.endpoint }),
    },
  };
}

/**
 * A location as the store keeps it: an operator's save, and the demo seed's spec locations, which
 * say nothing of maintenance (left out: the stored state stays, off for a new site).
 */
export type LocationToStore = Omit<Location, 'lockerStructure' | 'manutenzione'> &
  Partial<Pick<Location, 'manutenzione'>>;

export function toLocationRecord(location: LocationToStore): NewLocation {
  return {
    key: location.id,
    name: location.nome,
    address: location.indirizzo,
    zone: location.timezone,
    maxOnline: { ...location.maxOnline },
    pricing: pricingToCents(location.pricing),
    openingHours: { opening: location.orari.apertura, closing: location.orari.chiusura },
    maintenance: location.manutenzione,
    controller: {
      recipient: location.recipient,
      port: location.port,
      key: location.key,
      mastercode: location.mastercode,
      endpoint: location.endpoint,
    },
  };
}

/**
 * New counts for a location's lockers: existing numbers of a size are kept (the lowest when the
 * count shrinks), new lockers are numbered after the location's highest number.
 */
export function structureForCounts(
  current: LockerStructure,
  counts: Record<LockerSize, number>,
): LockerStructure {
  let next = Math.max(0, ...current.standard, ...current.large) + 1;
  const result = { standard: [] as number[], large: [] as number[] };
  for (const size of LOCKER_SIZES) {
    const kept = [...current[size]].sort((a, b) => a - b).slice(0, counts[size]);
    while (kept.length < counts[size]) kept.push(next++);
    result[size] = kept;
  }
  return result;
}

/** Gestione Sedi and Impostazioni Sedi: every change to locations, their prices and their lockers. */
export class LocationAdminService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly activity: AdminActivityLog,
  ) {}

  async all(): Promise<Location[]> {
    const records = await this.store.locations.list();
    return Promise.all(
      records.map(async (r) => toAdminLocation(r, await this.store.locations.lockers(r.key))),
    );
  }

  async get(key: string): Promise<Location> {
    const record = await this.store.locations.get(key);
    if (!record) throw new AppError('location/not_found', `No location '${key}'`);
    return toAdminLocation(record, await this.store.locations.lockers(key));
  }

  /** `GET /api/locations/all`: without controller settings. */
  async summaries(): Promise<LocationSummary[]> {
    return (await this.all()).map((l) => ({
      key: l.key,
      nome: l.nome,
      indirizzo: l.indirizzo,
      timezone: l.timezone,
      orari: l.orari,
      manutenzione: l.manutenzione,
      lockerStructure: l.lockerStructure,
      maxOnline: l.maxOnline,
      pricing: l.pricing,
      version: l.version,
    }));
  }

  /** Keyed by id (`GET /api/admin/locations`) or, the same value here, by key (`locations-full`). */
  async keyed(): Promise<Record<string, Location>> {
    return Object.fromEntries((await this.all()).map((l) => [l.id, l]));
  }

  async create(actor: AdminIdentity, input: CreateLocationInput): Promise<Location> {
    if (input.key !== undefined && input.key !== input.id) {
      throw new AppError('validation/invalid_body', 'The key must be the same as the id', [
        { path: 'key', message: 'The key must be the same as the id' },
      ]);
    }
    if (await this.store.locations.get(input.id)) throw new AppError('location/already_exists');
    const location: Location = { ...input, key: input.id };
    await this.store.locations.save(toLocationRecord(location), this.clock.now());
    await this.#setLockers(location.id, location.lockerStructure);
    await this.activity.record(actor, 'admin/location_created', `Sede ${location.id} creata`, {
      locationKey: location.id,
    });
    return this.get(location.id);
  }

  async update(actor: AdminIdentity, id: string, patch: UpdateLocationInput): Promise<Location> {
    const current = await this.#fresh(id);
    if (patch.key !== undefined && patch.key !== id) {
      throw new AppError('validation/invalid_body', 'The key must be the same as the id', [
        { path: 'key', message: 'The key must be the same as the id' },
      ]);
    }
    const edit: LocationEdit = { key: id, changes: changesOf(patch), expectedVersion: patch.version };
    // Checked before the lockers change too, so a stale save changes nothing; the edit checks again.
    this.#refuseStale([edit], [current]);
    const lockersBefore = structureOf(await this.store.locations.lockers(id));
    if (patch.lockerStructure) await this.#setLockers(id, patch.lockerStructure);
    await this.#edit(actor, [edit]);
    const changes = describeChanges(
      { ...auditView(current), lockers: lockersBefore },
      { ...auditView(await this.#fresh(id)), lockers: structureOf(await this.store.locations.lockers(id)) },
    );
    await this.activity.record(
      actor,
      'admin/location_updated',
      `Sede ${id} aggiornata${changes ? `: ${changes}` : ''}`,
      { locationKey: id },
    );
    return this.get(id);
  }

  async delete(actor: AdminIdentity, id: string): Promise<void> {
    const outcome = await this.store.locationAdmin.delete(id);
    if (outcome === 'not_found') throw new AppError('location/not_found', `No location '${id}'`);
    if (outcome === 'has_bookings') {
      throw new AppError(
        'location/has_bookings',
        // Gestione Database cannot pick one location, and a booking's history and takings stay with it.
        `La sede ${id} ha prenotazioni registrate (anche concluse) e non può essere eliminata: ` +
          'prenotazioni e incassi restano legati alla sede. Per non farla più prenotare, porta a 0 ' +
          '"Max online standard" e "Max online grandi" in Gestione Sedi.',
      );
    }
    await this.activity.record(actor, 'admin/location_deleted', `Sede ${id} eliminata`, { locationKey: id });
  }

  /**
   * Replaces the price tables of the listed locations, and writes no other location or field; all
   * of them exist and are at the version the page read, or nothing changes.
   */
  async updatePrices(
    actor: AdminIdentity,
    items: Array<{ key: string; pricing: LocationPricingEuros; version?: number }>,
  ): Promise<void> {
    await this.#bulkEdit(actor, items, (i) => ({ pricing: pricingToCents(i.pricing) }), 'Prezzi salvati');
  }

  async updateSettings(
    actor: AdminIdentity,
    items: Array<{ key: string; timezone: LocationTimezone; orari: OpeningHours; version?: number }>,
  ): Promise<void> {
    await this.#bulkEdit(
      actor,
      items,
      (i) => ({ zone: i.timezone, openingHours: { opening: i.orari.apertura, closing: i.orari.chiusura } }),
      'Impostazioni salvate',
    );
  }

  async updateLockerCounts(
    actor: AdminIdentity,
    items: Array<{ key: string; lockerStructure: Record<LockerSize, number>; version?: number }>,
  ): Promise<void> {
    const edits = items.map((i) => ({ key: i.key, changes: {}, expectedVersion: i.version }));
    this.#refuseStale(edits, await Promise.all(items.map((i) => this.#fresh(i.key))));
    for (const item of items) {
      const current = structureOf(await this.store.locations.lockers(item.key));
      await this.#setLockers(item.key, structureForCounts(current, item.lockerStructure));
    }
    await this.#edit(actor, edits);
    await this.activity.record(
      actor,
      'admin/locations_bulk_updated',
      `Struttura locker salvata: ${items.map((i) => `${i.key} ${i.lockerStructure.standard}+${i.lockerStructure.large}`).join(', ')}`,
    );
  }

  async duplicateStructure(actor: AdminIdentity, sourceKey: string, targetKey: string): Promise<void> {
    if (sourceKey === targetKey) throw new AppError('location/same_source_and_target');
    const [source] = await Promise.all([this.get(sourceKey), this.get(targetKey)]);
    await this.#setLockers(targetKey, source.lockerStructure);
    // The target changed: a page that read it before must reload before saving its counts.
    await this.#edit(actor, [{ key: targetKey, changes: {}, expectedVersion: undefined }]);
    await this.activity.record(
      actor,
      'admin/location_updated',
      `Struttura duplicata da ${sourceKey} a ${targetKey}`,
      { locationKey: targetKey },
    );
  }

  /**
   * Writes each item's changes at the version the page read (all or nothing), and records what
   * changed, after `what`, in the activity log.
   */
  async #bulkEdit<Item extends { key: string; version?: number }>(
    actor: AdminIdentity,
    items: readonly Item[],
    changesOf: (item: Item) => LocationEdit['changes'],
    what: string,
  ): Promise<void> {
    const before = await this.#records(items.map((i) => i.key));
    await this.#edit(
      actor,
      items.map((i) => ({ key: i.key, changes: changesOf(i), expectedVersion: i.version })),
    );
    await this.activity.record(
      actor,
      'admin/locations_bulk_updated',
      `${what}: ${await this.#changed(before)}`,
    );
  }

  /** The stored location (not the holds' short cache), for a version check before lockers change. */
  /** The listed locations as stored now (`location/not_found` for one that is not). */
  async #records(keys: readonly string[]): Promise<LocationRecord[]> {
    return Promise.all(keys.map((key) => this.#fresh(key)));
  }

  /** Each location's changes since `before` (`key (nessuna modifica)` when none), for the audit trail. */
  async #changed(before: readonly LocationRecord[]): Promise<string> {
    const after = await this.#records(before.map((record) => record.key));
    return before
      .map((record, index) => {
        const changes = describeChanges(auditView(record), auditView(after[index]!));
        return `${record.key} ${changes ? `(${changes})` : '(nessuna modifica)'}`;
      })
      .join(', ');
  }

  async #fresh(key: string): Promise<LocationRecord> {
    const record = (await this.store.locations.list()).find((r) => r.key === key);
    if (!record) throw new AppError('location/not_found', `No location '${key}'`);
    return record;
  }

  #refuseStale(edits: readonly LocationEdit[], records: readonly LocationRecord[]): void {
    for (const [index, edit] of edits.entries()) {
      const current = records[index].edit;
      if (edit.expectedVersion !== undefined && edit.expectedVersion !== current.version) {
        throw staleEditError(`La sede ${edit.key} è stata modificata`, current);
      }
    }
  }

  async #edit(actor: AdminIdentity, edits: readonly LocationEdit[]): Promise<void> {
    const result = await this.store.locationAdmin.edit(edits, actor.email, this.clock.now());
    if (result.ok) return;
    if (result.reason === 'not_found') {
      throw new AppError('location/not_found', `No location ${result.keys.join(', ')}`);
    }
    throw staleEditError(`La sede ${result.key} è stata modificata`, result.current);
  }

  async #setLockers(key: string, structure: LockerStructure): Promise<void> {
    const result = await this.store.locationAdmin.replaceLockers(
      key,
      lockerList(structure),
      this.clock.now(),
    );
    if (result.ok) return;
    if (result.reason === 'not_found') throw new AppError('location/not_found', `No location '${key}'`);
    throw new AppError(
      'location/has_bookings',
      `I locker ${result.lockers.join(', ')} hanno prenotazioni in corso o future e non possono essere rimossi o cambiati`,
    );
  }
}

/** A location as the audit trail compares it: its settings, not its bookkeeping. */
function auditView(record: LocationRecord): Omit<LocationRecord, 'edit' | 'createdAt' | 'updatedAt'> {
  const { edit: _edit, createdAt: _created, updatedAt: _updated, ...settings } = record;
  return settings;
}
