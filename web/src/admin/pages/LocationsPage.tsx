import { LOCATION_TIMEZONES, locationRoutes, zLocationKey, type Location } from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { adminCall } from '../admin-api';
import { ApiError } from '../../api/http';
import { checkedSubmit } from '../components/checked-submit';
import { FormInput, identifierOnChange } from '../components/form-fields';
import { PricingEditor } from '../components/PricingEditor';
import {
  PageNoticeBar,
  listOf,
  loadFailure,
  usePageNotices,
  type PageNotices,
} from '../components/page-notices';
import { Card, Empty, Field, Loading, Notice, PageHeader } from '../components/ui';
import {
  EMPTY_PRICING_ROWS,
  intOrZero,
  parseLockerList,
  pricingProblem,
  pricingToRows,
  rowsToPricing,
  type PricingRows,
} from '../location-form';
import { validationText } from '../error-text';
import { adminQueries } from '../query/queries';
import { useAdminMutation } from '../query/use-admin-mutation';
import { useConfirmedMutation } from '../query/use-confirmed-mutation';
import { BridgeTokenPanel } from './BridgeTokenPanel';

interface LocationForm {
  id: string;
  key: string;
  nome: string;
  indirizzo: string;
  timezone: string;
  recipient: string;
  port: string;
  mastercode: string;
  endpoint: string;
  standard: string;
  large: string;
  maxStandard: string;
  maxLarge: string;
  apertura: string;
  chiusura: string;
  manutenzione: boolean;
  pricing: PricingRows;
}

const NEW_FORM: LocationForm = {
  id: '',
  key: '',
  nome: '',
  indirizzo: '',
  timezone: 'Europe/Rome',
  recipient: '',
  port: '11000',
  mastercode: '',
  endpoint: '/',
  standard: '',
  large: '',
  maxStandard: '0',
  maxLarge: '0',
  apertura: '06:00',
  chiusura: '22:00',
  manutenzione: false,
  pricing: EMPTY_PRICING_ROWS,
};

function formOf(location: Location): LocationForm {
  return {
    id: location.id,
    key: location.key,
    nome: location.nome,
    indirizzo: location.indirizzo,
    timezone: location.timezone,
    recipient: location.recipient,
    port: String(location.port),
    mastercode: location.mastercode,
    endpoint: location.endpoint,
    standard: location.lockerStructure.standard.join(', '),
    large: location.lockerStructure.large.join(', '),
    maxStandard: String(location.maxOnline.standard),
    maxLarge: String(location.maxOnline.large),
    apertura: location.orari.apertura,
    chiusura: location.orari.chiusura,
    manutenzione: location.manutenzione,
    pricing: pricingToRows(location.pricing),
  };
}

/** The location's fields as the API takes them (admin spec §5: lists parsed, integers default 0). */
function fieldsOf(form: LocationForm) {
  return {
    nome: form.nome.trim(),
    indirizzo: form.indirizzo.trim(),
    timezone: form.timezone as Location['timezone'],
    recipient: form.recipient.trim(),
    port: intOrZero(form.port),
    mastercode: form.mastercode.trim(),
    endpoint: form.endpoint.trim() || '/',
    lockerStructure: { standard: parseLockerList(form.standard), large: parseLockerList(form.large) },
    maxOnline: { standard: intOrZero(form.maxStandard), large: intOrZero(form.maxLarge) },
    orari: { apertura: form.apertura, chiusura: form.chiusura },
    manutenzione: form.manutenzione,
    pricing: rowsToPricing(form.pricing),
  };
}

/** The server's own explanation appended to a message, when there is one. */
function withServerError(text: string, error: unknown): string {
  if (error instanceof ApiError && !error.code.startsWith('client/') && error.message) {
    return `${text}: ${error.message}`;
  }
  return text;
}

/** The server's rules for a new location's id, key and prices, checked here first; null when it can be sent. */
function newLocationProblem(form: LocationForm): string | null {
  const id = form.id.trim();
  if (!id) return 'L\'"ID interno" è obbligatorio per creare una nuova sede.';
  const key = form.key.trim() || id;
  const badKey = [zLocationKey.safeParse(id), zLocationKey.safeParse(key)].find((r) => !r.success);
  if (badKey?.error) {
    return badKey.error.issues.some((issue) => issue.code === 'custom')
      ? validationText(badKey.error)
      : 'ID interno e chiave: solo lettere minuscole, cifre, "-" e "_" (es. campo-2)';
  }
  return pricingProblem(form.pricing);
}

type LocationFormApi = UseFormReturn<LocationForm>;

/** Who the location is and when it is open; its id and key are set once, at creation. */
function LocationIdentityFields({ form, isNew }: { form: LocationFormApi; isNew: boolean }) {
  const { register } = form;
  const identifier = (name: 'id' | 'key') => {
    const field = register(name);
    return { ...field, onChange: identifierOnChange(field.onChange) };
  };
  return (
    <>
      <Field label="ID interno">
        <input className="adm-input" disabled={!isNew} placeholder="es. navona" {...identifier('id')} />
      </Field>
      <Field label="Key" hint={isNew ? 'Vuoto = uguale all’ID' : undefined}>
        <input className="adm-input" disabled={!isNew} {...identifier('key')} />
      </Field>
      <FormInput form={form} name="nome" label="Nome" />
      <Field label="Fuso orario">
        <select className="adm-input" {...register('timezone')}>
          {LOCATION_TIMEZONES.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </Field>
      <FormInput form={form} name="indirizzo" label="Indirizzo" />
      <FormInput form={form} name="apertura" label="Apertura" type="time" />
      <FormInput form={form} name="chiusura" label="Chiusura" type="time" />
      <label className="adm-switch" title="Le pagine di prenotazione di questa sede mostrano la manutenzione">
        <input type="checkbox" {...register('manutenzione')} />
        <span>Prenotazioni sospese (manutenzione della sede)</span>
      </label>
    </>
  );
}

/** The controller's address and the lockers it drives. */
function LocationControllerFields({ form }: { form: LocationFormApi }) {
  return (
    <>
      <FormInput form={form} name="recipient" label="Recipient (IP controller)" placeholder="192.168.1.50" />
      <FormInput form={form} name="port" label="Porta" inputMode="numeric" />
      <FormInput form={form} name="mastercode" label="Mastercode" />
      <FormInput form={form} name="endpoint" label="Endpoint" />
      <FormInput
        form={form}
        name="standard"
        label="Locker standard"
        hint="Numeri separati da virgola"
        placeholder="1, 2, 3"
      />
      <FormInput
        form={form}
        name="large"
        label="Locker grandi"
        hint="Numeri separati da virgola"
        placeholder="10, 11"
      />
      <FormInput form={form} name="maxStandard" label="Max online standard" inputMode="numeric" />
      <FormInput form={form} name="maxLarge" label="Max online grandi" inputMode="numeric" />
    </>
  );
}

function LocationFields({ form, isNew }: { form: LocationFormApi; isNew: boolean }) {
  return (
    <>
      <div className="adm-grid-4">
        <LocationIdentityFields form={form} isNew={isNew} />
        <LocationControllerFields form={form} />
      </div>
      <h3 className="adm-subtitle">Prezzi</h3>
      <Controller
        control={form.control}
        name="pricing"
        render={({ field }) => <PricingEditor rows={field.value} onChange={field.onChange} />}
      />
    </>
  );
}

const LOCATION_KEYS = [['locations']];

/** Nuova sede: closes once the location is created. */
function NewLocationCard({ notices, onCreated }: { notices: PageNotices; onCreated: () => void }) {
  const form = useForm<LocationForm>({ defaultValues: NEW_FORM });
  const create = useAdminMutation(
    (body: Parameters<typeof adminCall<typeof locationRoutes.createLocation>>[1]['body']) =>
      adminCall(locationRoutes.createLocation, { body }),
    LOCATION_KEYS,
  );
  const submit = checkedSubmit(form, newLocationProblem, notices.error, async (values) => {
    const id = values.id.trim();
    try {
      await create.mutateAsync({ id, key: values.key.trim() || id, ...fieldsOf(values) });
      notices.success('Nuova sede creata');
      onCreated();
    } catch (error) {
      notices.error(withServerError('Errore salvataggio', error));
    }
  });
  return (
    <Card title="Nuova sede">
      <form onSubmit={submit} className="adm-form">
        <LocationFields form={form} isNew />
        <div className="adm-form-actions">
          <button type="submit" className="adm-btn adm-btn-primary">
            Crea sede
          </button>
        </div>
      </form>
    </Card>
  );
}

/**
 * One location open for editing, filled from it as read; the save sends back the version this form
 * was filled from (then the one it saved), so another operator's save is never overwritten.
 */
function LocationEditor({
  location,
  notices,
  onRemove,
}: {
  location: Location;
  notices: PageNotices;
  onRemove: () => void;
}) {
  const form = useForm<LocationForm>({ defaultValues: formOf(location) });
  const [version, setVersion] = useState(location.version);
  const update = useAdminMutation(
    (body: Parameters<typeof adminCall<typeof locationRoutes.updateLocation>>[1]['body']) =>
      adminCall(locationRoutes.updateLocation, { params: { id: location.id }, body }),
    LOCATION_KEYS,
  );
  const save = checkedSubmit(
    form,
    (values) => pricingProblem(values.pricing),
    notices.error,
    async (values) => {
      try {
        const saved = await update.mutateAsync({ ...fieldsOf(values), version });
        setVersion(saved.location.version);
        notices.success(`Sede ${location.id} aggiornata`);
      } catch (error) {
        notices.refused(error, withServerError('Errore salvataggio', error));
      }
    },
  );
  return (
    <div className="adm-accordion-body">
      <LocationFields form={form} isNew={false} />
      <BridgeTokenPanel
        locationKey={location.key}
        recipient={location.recipient}
        port={location.port}
        mastercode={location.mastercode}
      />
      <div className="adm-form-actions">
        <button type="button" className="adm-btn adm-btn-danger-ghost" onClick={onRemove}>
          Elimina sede
        </button>
        <button type="button" className="adm-btn adm-btn-primary" onClick={() => save()}>
          Salva modifiche
        </button>
      </div>
    </div>
  );
}

function LocationHead({
  location,
  open,
  onToggle,
}: {
  location: Location;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <button type="button" className="adm-accordion-head" aria-expanded={open} onClick={onToggle}>
      <span className="adm-accordion-title">
        <strong>{location.nome}</strong>
        <span className="adm-muted"> · {location.id}</span>
      </span>
      <span className="adm-accordion-meta">
        {location.manutenzione ? <span className="adm-chip">In manutenzione</span> : null}
        <span>{location.timezone}</span>
        <span>
          {location.lockerStructure.standard.length} std / {location.lockerStructure.large.length} grandi
        </span>
        <span className="adm-mono">
          {location.recipient}:{location.port}
        </span>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
      </span>
    </button>
  );
}

export function LocationsPage() {
  const notices = usePageNotices();
  const query = useQuery({ ...adminQueries.locationsForEdit(), select: (byId) => Object.values(byId) });
  const locations = listOf(query);
  const [openId, setOpenId] = useState<string | null>(null);
  /** Changes on Ricarica: the open form starts over from the location as stored. */
  const [reloads, setReloads] = useState(0);
  const [showNew, setShowNew] = useState(false);
  const remove = useConfirmedMutation(
    (id: string) => adminCall(locationRoutes.deleteLocation, { params: { id } }),
    LOCATION_KEYS,
    {
      ask: (id) => ({
        title: `Eliminare la sede ${id}?`,
        text: "L'operazione non si può annullare.",
        confirmLabel: 'Elimina sede',
      }),
      onDone: (id) => {
        notices.success(`Sede ${id} eliminata`);
        setOpenId(null);
      },
      onFailed: (error) => notices.error(withServerError("Errore durante l'eliminazione", error)),
    },
  );

  /** After another operator's save: the stored location replaces this form's unsaved edits. */
  async function reload() {
    await query.refetch();
    setReloads((count) => count + 1);
  }

  return (
    <>
      {remove.dialog}
      <PageHeader
        title="Gestione Sedi"
        subtitle="Sedi, collegamento ai controller, struttura locker e prezzi"
        actions={
          <button type="button" className="adm-btn adm-btn-primary" onClick={() => setShowNew(!showNew)}>
            {showNew ? 'Chiudi' : '+ Nuova sede'}
          </button>
        }
      />
      <Notice message={loadFailure(query, 'Errore nel caricamento delle sedi')} />
      <PageNoticeBar notices={notices} onReload={() => void reload()} />
      {showNew ? <NewLocationCard notices={notices} onCreated={() => setShowNew(false)} /> : null}
      <Card>
        {locations === null ? (
          <Loading />
        ) : locations.length === 0 ? (
          <Empty>Nessuna sede configurata</Empty>
        ) : (
          <div className="adm-accordion">
            {locations.map((location) => (
              <div
                key={location.id}
                className={`adm-accordion-item${openId === location.id ? ' adm-accordion-open' : ''}`}
              >
                <LocationHead
                  location={location}
                  open={openId === location.id}
                  onToggle={() => setOpenId(openId === location.id ? null : location.id)}
                />
                {openId === location.id ? (
                  <LocationEditor
                    key={reloads}
                    location={location}
                    notices={notices}
                    onRemove={() => remove.run(location.id)}
                  />
                ) : null}
              </div>
            ))}
          </div>
        )}
      </Card>
    </>
  );
}
