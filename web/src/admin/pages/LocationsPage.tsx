import { LOCATION_TIMEZONES, locationRoutes, zLocationKey, type Location } from '@deposito/protocol';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { useConfirm } from '../components/use-confirm';
import { ApiError } from '../../api/http';
import { PricingEditor } from '../components/PricingEditor';
import { StaleNotice, staleEditMessage } from '../components/StaleNotice';
import { Card, Empty, Field, Loading, Notice, PageHeader, type NoticeMessage } from '../components/ui';
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

function LocationFields({
  form,
  onChange,
  isNew,
}: {
  form: LocationForm;
  onChange: (form: LocationForm) => void;
  isNew: boolean;
}) {
  const set = <K extends keyof LocationForm>(key: K, value: LocationForm[K]) =>
    onChange({ ...form, [key]: value });
  return (
    <>
      <div className="adm-grid-4">
        <Field label="ID interno">
          <input
            className="adm-input"
            value={form.id}
            disabled={!isNew}
            onChange={(e) => set('id', e.target.value.trim().toLowerCase())}
            placeholder="es. navona"
          />
        </Field>
        <Field label="Key" hint={isNew ? 'Vuoto = uguale all’ID' : undefined}>
          <input
            className="adm-input"
            value={form.key}
            disabled={!isNew}
            onChange={(e) => set('key', e.target.value.trim().toLowerCase())}
          />
        </Field>
        <Field label="Nome">
          <input className="adm-input" value={form.nome} onChange={(e) => set('nome', e.target.value)} />
        </Field>
        <Field label="Fuso orario">
          <select
            className="adm-input"
            value={form.timezone}
            onChange={(e) => set('timezone', e.target.value)}
          >
            {LOCATION_TIMEZONES.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Indirizzo">
          <input
            className="adm-input"
            value={form.indirizzo}
            onChange={(e) => set('indirizzo', e.target.value)}
          />
        </Field>
        <Field label="Apertura">
          <input
            className="adm-input"
            type="time"
            value={form.apertura}
            onChange={(e) => set('apertura', e.target.value)}
          />
        </Field>
        <Field label="Chiusura">
          <input
            className="adm-input"
            type="time"
            value={form.chiusura}
            onChange={(e) => set('chiusura', e.target.value)}
          />
        </Field>
        <label
          className="adm-switch"
          title="Le pagine di prenotazione di questa sede mostrano la manutenzione"
        >
          <input
            type="checkbox"
            checked={form.manutenzione}
            onChange={(e) => set('manutenzione', e.target.checked)}
          />
          <span>Prenotazioni sospese (manutenzione della sede)</span>
        </label>
        <Field label="Recipient (IP controller)">
          <input
            className="adm-input"
            value={form.recipient}
            onChange={(e) => set('recipient', e.target.value)}
            placeholder="192.168.1.50"
          />
        </Field>
        <Field label="Porta">
          <input
            className="adm-input"
            inputMode="numeric"
            value={form.port}
            onChange={(e) => set('port', e.target.value)}
          />
        </Field>
        <Field label="Mastercode">
          <input
            className="adm-input"
            value={form.mastercode}
            onChange={(e) => set('mastercode', e.target.value)}
          />
        </Field>
        <Field label="Endpoint">
          <input
            className="adm-input"
            value={form.endpoint}
            onChange={(e) => set('endpoint', e.target.value)}
          />
        </Field>
        <Field label="Locker standard" hint="Numeri separati da virgola">
          <input
            className="adm-input"
            value={form.standard}
            onChange={(e) => set('standard', e.target.value)}
            placeholder="1, 2, 3"
          />
        </Field>
        <Field label="Locker grandi" hint="Numeri separati da virgola">
          <input
            className="adm-input"
            value={form.large}
            onChange={(e) => set('large', e.target.value)}
            placeholder="10, 11"
          />
        </Field>
        <Field label="Max online standard">
          <input
            className="adm-input"
            inputMode="numeric"
            value={form.maxStandard}
            onChange={(e) => set('maxStandard', e.target.value)}
          />
        </Field>
        <Field label="Max online grandi">
          <input
            className="adm-input"
            inputMode="numeric"
            value={form.maxLarge}
            onChange={(e) => set('maxLarge', e.target.value)}
          />
        </Field>
      </div>
      <h3 className="adm-subtitle">Prezzi</h3>
      <PricingEditor rows={form.pricing} onChange={(pricing) => set('pricing', pricing)} />
    </>
  );
}

export function LocationsPage() {
  const confirm = useConfirm();
  const [locations, setLocations] = useState<Location[] | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [editForm, setEditForm] = useState<LocationForm | null>(null);
  /** The version of the location the open form was filled from; the save sends it back. */
  const [editVersion, setEditVersion] = useState<number | undefined>(undefined);
  const [stale, setStale] = useState<string | null>(null);
  const [newForm, setNewForm] = useState<LocationForm>(NEW_FORM);
  const [showNew, setShowNew] = useState(false);
  const [message, setMessage] = useState<NoticeMessage | null>(null);

  const load = useCallback(async () => {
    try {
      setLocations(Object.values(await adminCall(locationRoutes.adminLocations, { timeoutMs: 5_000 })));
    } catch {
      setLocations((current) => current ?? []);
      setMessage({ tone: 'error', text: 'Errore nel caricamento delle sedi' });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  function toggle(location: Location) {
    if (openId === location.id) {
      setOpenId(null);
      setEditForm(null);
    } else {
      setOpenId(location.id);
      setEditForm(formOf(location));
      setEditVersion(location.version);
    }
  }

  /** After another operator's save: the stored location replaces this form's unsaved edits. */
  async function reload() {
    setStale(null);
    try {
      const fresh = await adminCall(locationRoutes.adminLocations, { timeoutMs: 5_000 });
      setLocations(Object.values(fresh));
      const open = openId ? fresh[openId] : undefined;
      setEditForm(open ? formOf(open) : null);
      setEditVersion(open?.version);
    } catch {
      setMessage({ tone: 'error', text: 'Errore nel caricamento delle sedi' });
    }
  }

  async function save(id: string) {
    if (!editForm) return;
    const problem = pricingProblem(editForm.pricing);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    try {
      const saved = await adminCall(locationRoutes.updateLocation, {
        params: { id },
        body: { ...fieldsOf(editForm), version: editVersion },
      });
      setEditVersion(saved.location.version);
      setMessage({ tone: 'success', text: `Sede ${id} aggiornata` });
      await load();
    } catch (error) {
      const staleText = staleEditMessage(error);
      if (staleText) setStale(staleText);
      else setMessage({ tone: 'error', text: withServerError('Errore salvataggio', error) });
    }
  }

  async function remove(id: string) {
    const confirmed = await confirm.ask({
      title: `Eliminare la sede ${id}?`,
      text: "L'operazione non si può annullare.",
      confirmLabel: 'Elimina sede',
    });
    if (!confirmed) return;
    try {
      await adminCall(locationRoutes.deleteLocation, { params: { id } });
      setMessage({ tone: 'success', text: `Sede ${id} eliminata` });
      setOpenId(null);
      await load();
    } catch (error) {
      setMessage({ tone: 'error', text: withServerError("Errore durante l'eliminazione", error) });
    }
  }

  async function create(event: FormEvent) {
    event.preventDefault();
    const id = newForm.id.trim();
    if (!id) {
      setMessage({ tone: 'error', text: 'L\'"ID interno" è obbligatorio per creare una nuova sede.' });
      return;
    }
    // The server's rules for the key and the prices, checked here first.
    const key = newForm.key.trim() || id;
    const badKey = [zLocationKey.safeParse(id), zLocationKey.safeParse(key)].find((r) => !r.success);
    const problem = badKey?.error
      ? badKey.error.issues.some((issue) => issue.code === 'custom')
        ? validationText(badKey.error)
        : 'ID interno e chiave: solo lettere minuscole, cifre, "-" e "_" (es. campo-2)'
      : pricingProblem(newForm.pricing);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    try {
      await adminCall(locationRoutes.createLocation, {
        body: { id, key, ...fieldsOf(newForm) },
      });
      setMessage({ tone: 'success', text: 'Nuova sede creata' });
      setNewForm(NEW_FORM);
      setShowNew(false);
      await load();
    } catch (error) {
      setMessage({ tone: 'error', text: withServerError('Errore salvataggio', error) });
    }
  }

  return (
    <>
      {confirm.dialog}
      <PageHeader
        title="Gestione Sedi"
        subtitle="Sedi, collegamento ai controller, struttura locker e prezzi"
        actions={
          <button type="button" className="adm-btn adm-btn-primary" onClick={() => setShowNew(!showNew)}>
            {showNew ? 'Chiudi' : '+ Nuova sede'}
          </button>
        }
      />
      <Notice message={message} onClose={() => setMessage(null)} />
      <StaleNotice message={stale} onReload={() => void reload()} />
      {showNew ? (
        <Card title="Nuova sede">
          <form onSubmit={create} className="adm-form">
            <LocationFields form={newForm} onChange={setNewForm} isNew />
            <div className="adm-form-actions">
              <button type="submit" className="adm-btn adm-btn-primary">
                Crea sede
              </button>
            </div>
          </form>
        </Card>
      ) : null}
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
                <button
                  type="button"
                  className="adm-accordion-head"
                  aria-expanded={openId === location.id}
                  onClick={() => toggle(location)}
                >
                  <span className="adm-accordion-title">
                    <strong>{location.nome}</strong>
                    <span className="adm-muted"> · {location.id}</span>
                  </span>
                  <span className="adm-accordion-meta">
                    {location.manutenzione ? <span className="adm-chip">In manutenzione</span> : null}
                    <span>{location.timezone}</span>
                    <span>
                      {location.lockerStructure.standard.length} std / {location.lockerStructure.large.length}{' '}
                      grandi
                    </span>
                    <span className="adm-mono">
                      {location.recipient}:{location.port}
                    </span>
                    <span aria-hidden="true">{openId === location.id ? '▾' : '▸'}</span>
                  </span>
                </button>
                {openId === location.id && editForm ? (
                  <div className="adm-accordion-body">
                    <LocationFields form={editForm} onChange={setEditForm} isNew={false} />
                    <BridgeTokenPanel
                      locationKey={location.key}
                      recipient={location.recipient}
                      port={location.port}
                      mastercode={location.mastercode}
                    />
                    <div className="adm-form-actions">
                      <button
                        type="button"
                        className="adm-btn adm-btn-danger-ghost"
                        onClick={() => void remove(location.id)}
                      >
                        Elimina sede
                      </button>
                      <button
                        type="button"
                        className="adm-btn adm-btn-primary"
                        onClick={() => void save(location.id)}
                      >
                        Salva modifiche
                      </button>
                    </div>
                  </div>
                ) : null}
              </div>
            ))}
          </div>
        )}
      </Card>
    </>
  );
}
