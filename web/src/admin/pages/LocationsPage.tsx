import { locationRoutes, type Location } from '@deposito/protocol';
import { useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { adminCall } from '../admin-api';
import { ApiError } from '../../api/http';
import { FormInput, identifierOnChange, TimezoneField } from '../components/form-fields';
import { PricingEditor } from '../components/PricingEditor';
import { PageNoticeBar, listOf, useEditingPage, type PageNotices } from '../components/page-notices';
import { Card, Field, Listed, PageHeader } from '../components/ui';
import { formSubmit, useAdminForm } from '../forms/admin-form';
import {
  LOCATION_NAMES,
  NEW_LOCATION_FORM,
  locationEditFormSchema,
  locationFormOf,
  newLocationFormSchema,
  type LocationForm,
} from '../forms/location-editor-form';
import { adminQueries } from '../query/queries';
import { useRouteMutation } from '../query/use-admin-mutation';
import { useConfirmedMutation } from '../query/use-confirmed-mutation';
import { BridgeTokenPanel } from './BridgeTokenPanel';

/** The server's own explanation appended to a message, when there is one. */
function withServerError(text: string, error: unknown): string {
  if (error instanceof ApiError && !error.code.startsWith('client/') && error.message) {
    return `${text}: ${error.message}`;
  }
  return text;
}

type LocationFormApi = UseFormReturn<LocationForm, unknown, unknown>;

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
      <TimezoneField registration={register('timezone')} />
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
  const form = useAdminForm(newLocationFormSchema, NEW_LOCATION_FORM, LOCATION_NAMES);
  const create = useRouteMutation(locationRoutes.createLocation, LOCATION_KEYS);
  const submit = formSubmit(form, notices.error, async (body) => {
    try {
      await create.mutateAsync(body);
      notices.success('Nuova sede creata');
      onCreated();
    } catch (error) {
      notices.error(withServerError('Errore salvataggio', error));
    }
  });
  return (
    <Card title="Nuova sede">
      <form noValidate onSubmit={submit} className="adm-form">
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
  const form = useAdminForm(locationEditFormSchema, locationFormOf(location), LOCATION_NAMES);
  const [version, setVersion] = useState(location.version);
  const update = useRouteMutation(locationRoutes.updateLocation, LOCATION_KEYS, { id: location.id });
  const save = formSubmit(form, notices.error, async (body) => {
    try {
      const saved = await update.mutateAsync({ ...body, version });
      setVersion(saved.location.version);
      notices.success(`Sede ${location.id} aggiornata`);
    } catch (error) {
      notices.refused(error, withServerError('Errore salvataggio', error));
    }
  });
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
  const { notices, query, failed } = useEditingPage(
    { ...adminQueries.locationsForEdit(), select: (byId) => Object.values(byId) },
    'Errore nel caricamento delle sedi',
  );
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
      <PageNoticeBar notices={notices} failed={failed} onReload={() => void reload()} />
      {showNew ? <NewLocationCard notices={notices} onCreated={() => setShowNew(false)} /> : null}
      <Card>
        <Listed items={locations} empty="Nessuna sede configurata">
          {(locations) => (
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
        </Listed>
      </Card>
    </>
  );
}
