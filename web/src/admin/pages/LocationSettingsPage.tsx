import {
  LOCATION_TIMEZONES,
  locationRoutes,
  type LocationSummary,
  type LocationTimezone,
} from '@deposito/protocol';
import { useCallback, useEffect, useState } from 'react';
import { adminCall } from '../admin-api';
import { PricingEditor } from '../components/PricingEditor';
import { StaleNotice, staleEditMessage } from '../components/StaleNotice';
import { Card, Empty, Field, Loading, Notice, type NoticeMessage } from '../components/ui';
import { pricingProblem, pricingToRows, rowsToPricing, type PricingRows } from '../location-form';

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

/** Impostazioni Sedi: prices, zone and hours, locker counts, three saves and the duplicate tool. */
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

export function LocationSettingsPage() {
  const [drafts, setDrafts] = useState<SettingsDraft[] | null>(null);
  /** The locations as loaded: a save sends only the drafts that differ from them. */
  const [loaded, setLoaded] = useState<Record<string, SettingsDraft>>({});
  const [stale, setStale] = useState<string | null>(null);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [saving, setSaving] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const fresh = (await adminCall(locationRoutes.listLocations, { timeoutMs: 5_000 })).map(draftOf);
      setLoaded(Object.fromEntries(fresh.map((d) => [d.key, d])));
      setDrafts(fresh);
    } catch {
      setDrafts((current) => current ?? []);
      setMessage({ tone: 'error', text: 'Errore nel caricamento configurazione' });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  function update(key: string, change: Partial<SettingsDraft>) {
    setDrafts((current) => current?.map((d) => (d.key === key ? { ...d, ...change } : d)) ?? null);
  }

  async function save(kind: SaveKind) {
    if (!drafts || drafts.length === 0) return;
    const texts = {
      prices: ['Prezzi salvati', 'Errore durante il salvataggio dei prezzi'],
      settings: ['Impostazioni salvate', 'Errore durante il salvataggio delle impostazioni'],
      structure: ['Struttura locker salvata', 'Errore durante il salvataggio della struttura locker'],
    } as const;
    // Only the locations this page changed: saving one never rewrites another operator's work.
    const changed = drafts.filter((d) => changedFor(kind, d, loaded[d.key]));
    if (changed.length === 0) {
      setMessage({ tone: 'info', text: 'Nessuna modifica da salvare' });
      return;
    }
    if (kind === 'prices') {
      for (const draft of changed) {
        const problem = pricingProblem(draft.pricing);
        if (problem) {
          setMessage({ tone: 'error', text: `${draft.nome}: ${problem}` });
          return;
        }
      }
    }
    setSaving(kind);
    setMessage(null);
    try {
      if (kind === 'prices') {
        await adminCall(locationRoutes.updatePrices, {
          body: changed.map((d) => ({ key: d.key, pricing: rowsToPricing(d.pricing), version: d.version })),
        });
      } else if (kind === 'settings') {
        await adminCall(locationRoutes.updateSettings, {
          body: changed.map((d) => ({
            key: d.key,
            timezone: d.timezone,
            orari: { apertura: d.apertura, chiusura: d.chiusura },
            version: d.version,
          })),
        });
      } else {
        await adminCall(locationRoutes.updateLockerStructure, {
          body: changed.map((d) => ({
            key: d.key,
            lockerStructure: { standard: d.standard, large: d.large },
            version: d.version,
          })),
        });
      }
      setMessage({ tone: 'success', text: texts[kind][0] });
      await load();
    } catch (error) {
      const staleText = staleEditMessage(error);
      if (staleText) {
        setStale(staleText);
      } else {
        const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
        setMessage({ tone: 'error', text: `${texts[kind][1]}${detail}` });
      }
    } finally {
      setSaving(null);
    }
  }

  async function reload() {
    setStale(null);
    setMessage(null);
    await load();
  }

  async function duplicate() {
    if (!source || !target) {
      setMessage({ tone: 'error', text: 'Scegli sia origine che destinazione' });
      return;
    }
    if (source === target) {
      setMessage({ tone: 'error', text: 'Sorgente e destinazione devono essere diverse' });
      return;
    }
    try {
      await adminCall(locationRoutes.duplicateStructure, { body: { sourceKey: source, targetKey: target } });
      setMessage({ tone: 'success', text: `Struttura duplicata da ${source} a ${target}` });
      await load();
    } catch (error) {
      const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
      setMessage({ tone: 'error', text: `Errore durante duplicazione${detail}` });
    }
  }

  return (
    <>
      <Notice message={message} onClose={() => setMessage(null)} />
      <StaleNotice message={stale} onReload={() => void reload()} />
      <Card
        title="Impostazioni Sedi"
        actions={
          <>
            <button
              type="button"
              className="adm-btn adm-btn-secondary"
              disabled={saving !== null}
              onClick={() => void save('settings')}
            >
              Salva impostazioni
            </button>
            <button
              type="button"
              className="adm-btn adm-btn-secondary"
              disabled={saving !== null}
              onClick={() => void save('structure')}
            >
              Salva struttura locker
            </button>
            <button
              type="button"
              className="adm-btn adm-btn-primary"
              disabled={saving !== null}
              onClick={() => void save('prices')}
            >
              Salva prezzi
            </button>
          </>
        }
      >
        {drafts === null ? (
          <Loading />
        ) : drafts.length === 0 ? (
          <Empty>Nessuna sede configurata</Empty>
        ) : (
          <div className="adm-accordion">
            {drafts.map((draft) => (
              <div
                key={draft.key}
                className={`adm-accordion-item${open[draft.key] ? ' adm-accordion-open' : ''}`}
              >
                <button
                  type="button"
                  className="adm-accordion-head"
                  aria-expanded={Boolean(open[draft.key])}
                  onClick={() => setOpen({ ...open, [draft.key]: !open[draft.key] })}
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
                {open[draft.key] ? (
                  <div className="adm-accordion-body">
                    <div className="adm-grid-5">
                      <Field label="Fuso orario">
                        <select
                          className="adm-input"
                          value={draft.timezone}
                          onChange={(e) =>
                            update(draft.key, { timezone: e.target.value as LocationTimezone })
                          }
                        >
                          {LOCATION_TIMEZONES.map((zone) => (
                            <option key={zone} value={zone}>
                              {zone}
                            </option>
                          ))}
                        </select>
                      </Field>
                      <Field label="Apertura">
                        <input
                          className="adm-input"
                          type="time"
                          value={draft.apertura}
                          onChange={(e) => update(draft.key, { apertura: e.target.value })}
                        />
                      </Field>
                      <Field label="Chiusura">
                        <input
                          className="adm-input"
                          type="time"
                          value={draft.chiusura}
                          onChange={(e) => update(draft.key, { chiusura: e.target.value })}
                        />
                      </Field>
                      <Field label="Locker standard">
                        <input
                          className="adm-input"
                          type="number"
                          min={0}
                          value={draft.standard}
                          onChange={(e) => update(draft.key, { standard: count(e.target.value) })}
                        />
                      </Field>
                      <Field label="Locker grandi">
                        <input
                          className="adm-input"
                          type="number"
                          min={0}
                          value={draft.large}
                          onChange={(e) => update(draft.key, { large: count(e.target.value) })}
                        />
                      </Field>
                    </div>
                    <PricingEditor
                      rows={draft.pricing}
                      onChange={(pricing) => update(draft.key, { pricing })}
                    />
                  </div>
                ) : null}
              </div>
            ))}
          </div>
        )}
      </Card>
      <Card title="Duplica struttura locker">
        <div className="adm-filterbar">
          <LocationChoice label="Origine" value={source} onChange={setSource} locations={drafts ?? []} />
          <span aria-hidden="true">→</span>
          <LocationChoice label="Destinazione" value={target} onChange={setTarget} locations={drafts ?? []} />
          <button type="button" className="adm-btn adm-btn-secondary" onClick={() => void duplicate()}>
            Duplica struttura
          </button>
        </div>
      </Card>
    </>
  );
}
