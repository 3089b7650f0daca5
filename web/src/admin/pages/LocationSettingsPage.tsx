import {
  LOCATION_TIMEZONES,
  locationRoutes,
  type LocationSummary,
  type LocationTimezone,
} from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { adminCall } from '../admin-api';
import { PricingEditor } from '../components/PricingEditor';
import {
  PageNoticeBar,
  listOf,
  loadFailure,
  usePageNotices,
  type PageNotices,
} from '../components/page-notices';
import { checkedSubmit } from '../components/checked-submit';
import { Card, Empty, Field, Loading, Notice } from '../components/ui';
import { pricingProblem, pricingToRows, rowsToPricing, type PricingRows } from '../location-form';
import { adminQueries } from '../query/queries';
import { useAdminMutation } from '../query/use-admin-mutation';

interface SettingsDraft {
  key: string;
  nome: string;
  timezone: LocationTimezone;
  apertura: string;
  chiusura: string;
  standard: number;
  large: number;
  pricing: PricingRows;
  /** The location's version when loaded; a save sends it back (another operator's save wins). */
  version: number | undefined;
}

function draftOf(location: LocationSummary): SettingsDraft {
  return {
    key: location.key,
    nome: location.nome,
    timezone: location.timezone,
    apertura: location.orari.apertura,
    chiusura: location.orari.chiusura,
    standard: location.lockerStructure.standard.length,
    large: location.lockerStructure.large.length,
    pricing: pricingToRows(location.pricing),
    version: location.version,
  };
}

type SaveKind = 'prices' | 'settings' | 'structure';

const samePricing = (a: PricingRows, b: PricingRows) =>
  JSON.stringify(rowsToPricing(a)) === JSON.stringify(rowsToPricing(b));

/** Whether a draft differs from the location as loaded in what one save button writes. */
function changedFor(kind: SaveKind, draft: SettingsDraft, loaded: SettingsDraft | undefined): boolean {
  if (!loaded) return true;
  if (kind === 'prices') return !samePricing(draft.pricing, loaded.pricing);
  if (kind === 'settings') {
    return (
      draft.timezone !== loaded.timezone ||
      draft.apertura !== loaded.apertura ||
      draft.chiusura !== loaded.chiusura
    );
  }
  return draft.standard !== loaded.standard || draft.large !== loaded.large;
}

const count = (text: string) => Math.max(0, Number.parseInt(text, 10) || 0);

/** One end of the duplicate-structure tool: a location picked by name. */
function LocationChoice(props: {
  label: string;
  value: string;
  onChange: (key: string) => void;
  locations: readonly { key: string; nome: string }[];
}) {
  return (
    <label className="adm-field adm-field-inline">
      <span className="adm-field-label">{props.label}</span>
      <select
        className="adm-input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-label={props.label}
      >
        <option value="">Scegli…</option>
        {props.locations.map((location) => (
          <option key={location.key} value={location.key}>
            {location.nome}
          </option>
        ))}
      </select>
    </label>
  );
}

const LOCATION_KEYS = [['locations']];

const SAVE_TEXTS = {
  prices: ['Prezzi salvati', 'Errore durante il salvataggio dei prezzi'],
  settings: ['Impostazioni salvate', 'Errore durante il salvataggio delle impostazioni'],
  structure: ['Struttura locker salvata', 'Errore durante il salvataggio della struttura locker'],
} as const;

/** What one save button sends: only the locations it changed, each with the version it read. */
function saveOf(kind: SaveKind, changed: SettingsDraft[]) {
  if (kind === 'prices') {
    return adminCall(locationRoutes.updatePrices, {
      body: changed.map((d) => ({ key: d.key, pricing: rowsToPricing(d.pricing), version: d.version })),
    });
  }
  if (kind === 'settings') {
    return adminCall(locationRoutes.updateSettings, {
      body: changed.map((d) => ({
        key: d.key,
        timezone: d.timezone,
        orari: { apertura: d.apertura, chiusura: d.chiusura },
        version: d.version,
      })),
    });
  }
  return adminCall(locationRoutes.updateLockerStructure, {
    body: changed.map((d) => ({
      key: d.key,
      lockerStructure: { standard: d.standard, large: d.large },
      version: d.version,
    })),
  });
}

/** The problem of the first changed price table, with its location's name; null when all can be saved. */
function pricesProblem(changed: SettingsDraft[]): string | null {
  for (const draft of changed) {
    const problem = pricingProblem(draft.pricing);
    if (problem) return `${draft.nome}: ${problem}`;
  }
  return null;
}

type DraftsForm = UseFormReturn<{ drafts: SettingsDraft[] }>;

/** One location's accordion body: zone, hours, locker counts and price tables. */
function LocationSettingsFields({ form, index }: { form: DraftsForm; index: number }) {
  const { register } = form;
  return (
    <div className="adm-accordion-body">
      <div className="adm-grid-5">
        <Field label="Fuso orario">
          <select className="adm-input" {...register(`drafts.${index}.timezone`)}>
            {LOCATION_TIMEZONES.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Apertura">
          <input className="adm-input" type="time" {...register(`drafts.${index}.apertura`)} />
        </Field>
        <Field label="Chiusura">
          <input className="adm-input" type="time" {...register(`drafts.${index}.chiusura`)} />
        </Field>
        <Field label="Locker standard">
          <input
            className="adm-input"
            type="number"
            min={0}
            {...register(`drafts.${index}.standard`, { setValueAs: count })}
          />
        </Field>
        <Field label="Locker grandi">
          <input
            className="adm-input"
            type="number"
            min={0}
            {...register(`drafts.${index}.large`, { setValueAs: count })}
          />
        </Field>
      </div>
      <Controller
        control={form.control}
        name={`drafts.${index}.pricing`}
        render={({ field }) => <PricingEditor rows={field.value} onChange={field.onChange} />}
      />
    </div>
  );
}

/**
 * Impostazioni Sedi's form: every location's draft in one react-hook-form form, filled from the
 * locations as read (the page remounts it when they are read again); three saves, each sending
 * only the locations whose part it writes differs from what was read.
 */
function LocationSettingsForm({
  loaded,
  notices,
  open,
  onToggle,
}: {
  loaded: SettingsDraft[];
  notices: PageNotices;
  open: Record<string, boolean>;
  onToggle: (key: string) => void;
}) {
  const form = useForm({ defaultValues: { drafts: loaded } });
  const drafts = form.watch('drafts');
  const [saving, setSaving] = useState<SaveKind | null>(null);
  const save = useAdminMutation(
    ({ kind, changed }: { kind: SaveKind; changed: SettingsDraft[] }) => saveOf(kind, changed),
    LOCATION_KEYS,
  );

  async function submit(kind: SaveKind) {
    if (drafts.length === 0) return;
    // Only the locations this page changed: saving one never rewrites another operator's work.
    const changed = drafts.filter((d, i) => changedFor(kind, d, loaded[i]));
    if (changed.length === 0)
      return notices.setMessage({ tone: 'info', text: 'Nessuna modifica da salvare' });
    const problem = kind === 'prices' ? pricesProblem(changed) : null;
    if (problem) return notices.error(problem);
    setSaving(kind);
    notices.setMessage(null);
    try {
      await save.mutateAsync({ kind, changed });
      notices.success(SAVE_TEXTS[kind][0]);
    } catch (error) {
      const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
      notices.refused(error, `${SAVE_TEXTS[kind][1]}${detail}`);
    } finally {
      setSaving(null);
    }
  }

  const saveButton = (kind: SaveKind, label: string, tone = 'adm-btn-secondary') => (
    <button
      type="button"
      className={`adm-btn ${tone}`}
      disabled={saving !== null}
      onClick={() => void submit(kind)}
    >
      {label}
    </button>
  );

  return (
    <Card
      title="Impostazioni Sedi"
      actions={
        <>
          {saveButton('settings', 'Salva impostazioni')}
          {saveButton('structure', 'Salva struttura locker')}
          {saveButton('prices', 'Salva prezzi', 'adm-btn-primary')}
        </>
      }
    >
      {drafts.length === 0 ? (
        <Empty>Nessuna sede configurata</Empty>
      ) : (
        <div className="adm-accordion">
          {drafts.map((draft, index) => (
            <div
              key={draft.key}
              className={`adm-accordion-item${open[draft.key] ? ' adm-accordion-open' : ''}`}
            >
              <button
                type="button"
                className="adm-accordion-head"
                aria-expanded={Boolean(open[draft.key])}
                onClick={() => onToggle(draft.key)}
              >
                <span className="adm-accordion-title">
                  <strong>{draft.nome}</strong>
                  <span className="adm-muted"> · {draft.key}</span>
                </span>
                <span className="adm-accordion-meta">
                  <span>{draft.timezone}</span>
                  <span>
                    {draft.apertura}–{draft.chiusura}
                  </span>
                  <span>
                    {draft.standard} std / {draft.large} grandi
                  </span>
                  <span aria-hidden="true">{open[draft.key] ? '▾' : '▸'}</span>
                </span>
              </button>
              {open[draft.key] ? <LocationSettingsFields form={form} index={index} /> : null}
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}

/** Duplica struttura locker: one location's lockers copied onto another. */
function DuplicateStructureCard({
  locations,
  notices,
}: {
  locations: SettingsDraft[];
  notices: PageNotices;
}) {
  const form = useForm({ defaultValues: { source: '', target: '' } });
  const duplicate = useAdminMutation(
    (body: { sourceKey: string; targetKey: string }) =>
      adminCall(locationRoutes.duplicateStructure, { body }),
    LOCATION_KEYS,
  );
  const check = ({ source, target }: { source: string; target: string }) =>
    !source || !target
      ? 'Scegli sia origine che destinazione'
      : source === target
        ? 'Sorgente e destinazione devono essere diverse'
        : null;
  const submit = checkedSubmit(form, check, notices.error, async ({ source, target }) => {
    try {
      await duplicate.mutateAsync({ sourceKey: source, targetKey: target });
      notices.success(`Struttura duplicata da ${source} a ${target}`);
    } catch (error) {
      const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
      notices.error(`Errore durante duplicazione${detail}`);
    }
  });
  const choice = (name: 'source' | 'target', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <LocationChoice label={label} value={field.value} onChange={field.onChange} locations={locations} />
      )}
    />
  );
  return (
    <Card title="Duplica struttura locker">
      <div className="adm-filterbar">
        {choice('source', 'Origine')}
        <span aria-hidden="true">→</span>
        {choice('target', 'Destinazione')}
        <button type="button" className="adm-btn adm-btn-secondary" onClick={() => submit()}>
          Duplica struttura
        </button>
      </div>
    </Card>
  );
}

/** Impostazioni Sedi: prices, zone and hours, locker counts, three saves and the duplicate tool. */
export function LocationSettingsPage() {
  const notices = usePageNotices();
  const query = useQuery(adminQueries.locationSummaries());
  const summaries = listOf(query);
  /** The locations as loaded: a save sends only the drafts that differ from them. */
  const loaded = useMemo(() => summaries?.map(draftOf) ?? null, [summaries]);
  const [open, setOpen] = useState<Record<string, boolean>>({});

  return (
    <>
      <Notice message={loadFailure(query, 'Errore nel caricamento configurazione')} />
      <PageNoticeBar
        notices={notices}
        onReload={() => {
          notices.setMessage(null);
          void query.refetch();
        }}
      />
      {loaded === null ? (
        <Card title="Impostazioni Sedi">
          <Loading />
        </Card>
      ) : (
        <LocationSettingsForm
          // Read again (a save, Ricarica): the drafts start over from what is stored.
          key={query.dataUpdatedAt}
          loaded={loaded}
          notices={notices}
          open={open}
          onToggle={(key) => setOpen({ ...open, [key]: !open[key] })}
        />
      )}
      <DuplicateStructureCard locations={loaded ?? []} notices={notices} />
    </>
  );
}
