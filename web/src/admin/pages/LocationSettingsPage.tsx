import {
  duplicateStructureRequestSchema,
  locationRoutes,
  updateLocationSettingsRequestSchema,
  updateLockerStructureRequestSchema,
  updatePricesRequestSchema,
  type LocationSummary,
  type LocationTimezone,
} from '@deposito/protocol';
import { z } from 'zod';
import { useMemo, useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { adminCall } from '../admin-api';
import { PricingEditor } from '../components/PricingEditor';
import { LocationOptions, TimezoneField } from '../components/form-fields';
import { PageNoticeBar, listOf, useEditingPage, type PageNotices } from '../components/page-notices';
import { Card, Empty, Field, Loading } from '../components/ui';
import {
  pricingLabels,
  pricingRowsSchema,
  pricingToRows,
  rowsToPricing,
  type PricingRows,
} from '../location-form';
import { FORM_ERROR_CODES, type FieldLabels } from '../error-text';
import { checkFormValues, formSubmit, useAdminForm } from '../forms/admin-form';
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
        <LocationOptions locations={props.locations} />
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

/** What each save button sends, read from the changed locations' drafts and checked as the server will. */
const REQUEST_SCHEMAS = {
  prices: z
    .array(z.object({ key: z.string(), pricing: pricingRowsSchema, version: z.number().optional() }))
    .pipe(updatePricesRequestSchema),
  settings: updateLocationSettingsRequestSchema,
  structure: updateLockerStructureRequestSchema,
};

type SaveRequest =
  | { kind: 'prices'; body: z.output<typeof REQUEST_SCHEMAS.prices> }
  | { kind: 'settings'; body: z.output<typeof REQUEST_SCHEMAS.settings> }
  | { kind: 'structure'; body: z.output<typeof REQUEST_SCHEMAS.structure> };

/** The Italian names of what each changed location's part holds, after its name. */
function draftLabels(kind: SaveKind, changed: SettingsDraft[]): FieldLabels {
  const named = (d: SettingsDraft, i: number): FieldLabels =>
    kind === 'prices'
      ? pricingLabels(`${i}.pricing`, `${d.nome}: `)
      : kind === 'settings'
        ? {
            [`${i}.timezone`]: `${d.nome}: Fuso orario`,
            [`${i}.orari.apertura`]: `${d.nome}: Apertura`,
            [`${i}.orari.chiusura`]: `${d.nome}: Chiusura`,
          }
        : {
            [`${i}.lockerStructure.standard`]: `${d.nome}: Locker standard`,
            [`${i}.lockerStructure.large`]: `${d.nome}: Locker grandi`,
          };
  return Object.assign({}, ...changed.map(named));
}

/**
 * One save button's request: only the locations it changed, each with the version it read, or the
 * Italian text of the first problem.
 */
function requestOf(
  kind: SaveKind,
  changed: SettingsDraft[],
): { ok: true; request: SaveRequest } | { ok: false; problem: string } {
  const names = { labels: draftLabels(kind, changed) };
  const checked =
    kind === 'prices'
      ? checkFormValues(
          REQUEST_SCHEMAS.prices,
          changed.map((d) => ({ key: d.key, pricing: d.pricing, version: d.version })),
          names,
        )
      : kind === 'settings'
        ? checkFormValues(
            REQUEST_SCHEMAS.settings,
            changed.map((d) => ({
              key: d.key,
              timezone: d.timezone,
              orari: { apertura: d.apertura, chiusura: d.chiusura },
              version: d.version,
            })),
            names,
          )
        : checkFormValues(
            REQUEST_SCHEMAS.structure,
            changed.map((d) => ({
              key: d.key,
              lockerStructure: { standard: d.standard, large: d.large },
              version: d.version,
            })),
            names,
          );
  return checked.ok ? { ok: true, request: { kind, body: checked.body } as SaveRequest } : checked;
}

function send(request: SaveRequest) {
  if (request.kind === 'prices') return adminCall(locationRoutes.updatePrices, { body: request.body });
  if (request.kind === 'settings') return adminCall(locationRoutes.updateSettings, { body: request.body });
  return adminCall(locationRoutes.updateLockerStructure, { body: request.body });
}

type DraftsForm = UseFormReturn<{ drafts: SettingsDraft[] }>;

/** The locker counts a location's draft holds, by size. */
const LOCKER_COUNTS = [
  ['standard', 'Locker standard'],
  ['large', 'Locker grandi'],
] as const;

/** One location's accordion body: zone, hours, locker counts and price tables. */
function LocationSettingsFields({ form, index }: { form: DraftsForm; index: number }) {
  const { register } = form;
  return (
    <div className="adm-accordion-body">
      <div className="adm-grid-5">
        <TimezoneField registration={register(`drafts.${index}.timezone`)} />
        <Field label="Apertura">
          <input className="adm-input" type="time" {...register(`drafts.${index}.apertura`)} />
        </Field>
        <Field label="Chiusura">
          <input className="adm-input" type="time" {...register(`drafts.${index}.chiusura`)} />
        </Field>
        {LOCKER_COUNTS.map(([size, label]) => (
          <Field key={size} label={label}>
            <input
              className="adm-input"
              type="number"
              min={0}
              {...register(`drafts.${index}.${size}`, { setValueAs: count })}
            />
          </Field>
        ))}
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
  const save = useAdminMutation(send, LOCATION_KEYS);

  async function submit(kind: SaveKind) {
    if (drafts.length === 0) return;
    // Only the locations this page changed: saving one never rewrites another operator's work.
    const changed = drafts.filter((d, i) => changedFor(kind, d, loaded[i]));
    if (changed.length === 0)
      return notices.setMessage({ tone: 'info', text: 'Nessuna modifica da salvare' });
    const checked = requestOf(kind, changed);
    if (!checked.ok) return notices.error(checked.problem);
    setSaving(kind);
    notices.setMessage(null);
    try {
      await save.mutateAsync(checked.request);
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

/** Both locations chosen, then the protocol's rule (two different ones). */
const duplicateFormSchema = z
  .object({ source: z.string(), target: z.string() })
  .superRefine(({ source, target }, ctx) => {
    if (!source || !target) {
      ctx.addIssue({
        code: 'custom',
        path: [source ? 'target' : 'source'],
        params: { code: FORM_ERROR_CODES.copyTargetRequired },
      });
    }
  })
  .transform(({ source, target }) => ({ sourceKey: source, targetKey: target }))
  .pipe(duplicateStructureRequestSchema);

/** Duplica struttura locker: one location's lockers copied onto another. */
function DuplicateStructureCard({
  locations,
  notices,
}: {
  locations: SettingsDraft[];
  notices: PageNotices;
}) {
  const form = useAdminForm(duplicateFormSchema, { source: '', target: '' });
  const duplicate = useAdminMutation(
    (body: { sourceKey: string; targetKey: string }) =>
      adminCall(locationRoutes.duplicateStructure, { body }),
    LOCATION_KEYS,
  );
  const submit = formSubmit(form, notices.error, async (body) => {
    try {
      await duplicate.mutateAsync(body);
      notices.success(`Struttura duplicata da ${body.sourceKey} a ${body.targetKey}`);
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
  const { notices, query, failed } = useEditingPage(
    adminQueries.locationSummaries(),
    'Errore nel caricamento configurazione',
  );
  const summaries = listOf(query);
  /** The locations as loaded: a save sends only the drafts that differ from them. */
  const loaded = useMemo(() => summaries?.map(draftOf) ?? null, [summaries]);
  const [open, setOpen] = useState<Record<string, boolean>>({});

  return (
    <>
      <PageNoticeBar
        notices={notices}
        failed={failed}
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
