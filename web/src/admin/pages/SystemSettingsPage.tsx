import {
  settingsRoutes,
  systemSettingsPatchSchema,
  type SystemSettings,
  type TimeWindow,
} from '@deposito/protocol';
import { VISITOR_CANCELLATION_POLICIES } from '@deposito/protocol/booking/cancellation-policy';
import { MAX_DIMENSIONS_LENGTH } from '@deposito/protocol/schemas/limits';
import { useEffect, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { StaleNotice, staleEditMessage } from '../components/StaleNotice';
import { validationText } from '../error-text';
import { Card, Field, Loading, Notice, type NoticeMessage } from '../components/ui';

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

const CANCELLATION_POLICY_LABELS: Record<SystemSettings['VISITOR_CANCELLATION_POLICY'], string> = {
  future_days_until_start: 'Prenotazioni per un altro giorno, fino all’inizio',
  until_start: 'Tutte le prenotazioni, fino all’inizio',
  never: 'Mai online',
};

/** Parametri di sistema: block windows, expiry, maintenance and fast track, as the booking pages apply them. */
export function SystemSettingsPage() {
  const [settings, setSettings] = useState<SystemSettings | null>(null);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [saving, setSaving] = useState(false);
  const [stale, setStale] = useState<string | null>(null);

  // The settings carry their version: the save sends it back, so another operator's save is never reverted.
  const load = () =>
    adminCall(settingsRoutes.getSystem, {})
      .then(setSettings)
      .catch(() => setMessage({ tone: 'error', text: 'Errore nel caricamento configurazione' }));

  useEffect(() => {
    void load();
  }, []);

  if (!settings) {
    return (
      <>
        <Notice message={message} />
        {message ? null : <Loading />}
      </>
    );
  }

  const set = <K extends keyof SystemSettings>(key: K, value: SystemSettings[K]) =>
    setSettings({ ...settings, [key]: value });
  const setWindow = (index: number, change: Partial<TimeWindow>) =>
    set(
      'BLOCK_WINDOWS',
      settings.BLOCK_WINDOWS.map((w, i) => (i === index ? { ...w, ...change } : w)),
    );

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!settings) return;
    const bad = settings.BLOCK_WINDOWS.some((w) => !TIME.test(w.from) || !TIME.test(w.to));
    if (bad || !TIME.test(settings.FASTTRACK_FROM) || !TIME.test(settings.FASTTRACK_TO)) {
      setMessage({ tone: 'error', text: 'Orari non validi: usa il formato HH:mm' });
      return;
    }
    if (!(settings.BOOKING_EXPIRATION_MINUTES >= 1 && settings.BOOKING_EXPIRATION_MINUTES <= 240)) {
      setMessage({ tone: 'error', text: 'La scadenza deve essere tra 1 e 240 minuti' });
      return;
    }
    // The server's own rules (overlapping or empty block windows, an inverted fast track), checked here first.
    const checked = systemSettingsPatchSchema.safeParse(settings);
    if (!checked.success) {
      setMessage({ tone: 'error', text: validationText(checked.error) });
      return;
    }
    setSaving(true);
    try {
      setSettings(await adminCall(settingsRoutes.updateSystem, { body: settings }));
      setMessage({ tone: 'success', text: 'Impostazioni salvate' });
    } catch (error) {
      const staleText = staleEditMessage(error);
      if (staleText) {
        setStale(staleText);
      } else {
        const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
        setMessage({ tone: 'error', text: `Errore durante il salvataggio delle impostazioni${detail}` });
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={save}>
      <Notice message={message} onClose={() => setMessage(null)} />
      <StaleNotice
        message={stale}
        onReload={() => {
          setStale(null);
          setMessage(null);
          void load();
        }}
      />
      <div className="adm-split">
        <Card title="Finestre di blocco" className="adm-split-main">
          <p className="adm-muted adm-small">
            Nelle finestre di blocco le pagine di prenotazione mostrano la manutenzione (ora locale della
            sede; una finestra che finisce prima di iniziare passa la mezzanotte).
          </p>
          <table className="adm-table adm-table-compact">
            <thead>
              <tr>
                <th>Dalle</th>
                <th>Alle</th>
                <th>
                  <span className="visually-hidden">Azioni</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {settings.BLOCK_WINDOWS.map((window, index) => (
                <tr key={index}>
                  <td>
                    <input
                      className="adm-input"
                      type="time"
                      aria-label={`Finestra ${index + 1} dalle`}
                      value={window.from}
                      onChange={(e) => setWindow(index, { from: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      className="adm-input"
                      type="time"
                      aria-label={`Finestra ${index + 1} alle`}
                      value={window.to}
                      onChange={(e) => setWindow(index, { to: e.target.value })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="adm-icon-btn"
                      aria-label="Rimuovi finestra"
                      onClick={() =>
                        set(
                          'BLOCK_WINDOWS',
                          settings.BLOCK_WINDOWS.filter((_, i) => i !== index),
                        )
                      }
                    >
                      ×
                    </button>
                  </td>
                </tr>
              ))}
              {settings.BLOCK_WINDOWS.length === 0 ? (
                <tr>
                  <td colSpan={3} className="adm-muted">
                    Nessuna finestra di blocco
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
          <button
            type="button"
            className="adm-link"
            onClick={() => set('BLOCK_WINDOWS', [...settings.BLOCK_WINDOWS, { from: '00:00', to: '06:00' }])}
          >
            + Aggiungi finestra
          </button>
        </Card>
        <Card title="Parametri" className="adm-split-side">
          <Field label="Scadenza prenotazione (minuti)">
            <input
              className="adm-input"
              type="number"
              min={1}
              max={240}
              value={settings.BOOKING_EXPIRATION_MINUTES}
              onChange={(e) => set('BOOKING_EXPIRATION_MINUTES', Number.parseInt(e.target.value, 10) || 0)}
            />
          </Field>
          <div className="adm-grid-2">
            <Field label="Fast Track dalle">
              <input
                className="adm-input"
                type="time"
                value={settings.FASTTRACK_FROM}
                onChange={(e) => set('FASTTRACK_FROM', e.target.value)}
              />
            </Field>
            <Field label="Fast Track alle">
              <input
                className="adm-input"
                type="time"
                value={settings.FASTTRACK_TO}
                onChange={(e) => set('FASTTRACK_TO', e.target.value)}
              />
            </Field>
          </div>
          <label className="adm-switch">
            <input
              type="checkbox"
              checked={settings.MAINTENANCE_MODE}
              onChange={(e) => set('MAINTENANCE_MODE', e.target.checked)}
            />
            <span>Modalità manutenzione</span>
          </label>
          <label className="adm-switch">
            <input
              type="checkbox"
              checked={settings.ALWAYS_SHOW_FAST_TRACK}
              onChange={(e) => set('ALWAYS_SHOW_FAST_TRACK', e.target.checked)}
            />
            <span>Mostra sempre Fast Track</span>
          </label>
          <label className="adm-switch">
            <input
              type="checkbox"
              checked={settings.SHOW_NIGHT_BUTTON_TEST}
              onChange={(e) => set('SHOW_NIGHT_BUTTON_TEST', e.target.checked)}
            />
            <span>Pulsante test prenotazione notturna</span>
          </label>
          <Field
            label="Annullamento online"
            hint="Quando i clienti possono annullare dalla pagina della prenotazione, con rimborso."
          >
            <select
              className="adm-input"
              value={settings.VISITOR_CANCELLATION_POLICY}
              onChange={(e) =>
                set(
                  'VISITOR_CANCELLATION_POLICY',
                  e.target.value as SystemSettings['VISITOR_CANCELLATION_POLICY'],
                )
              }
            >
              {VISITOR_CANCELLATION_POLICIES.map((policy) => (
                <option key={policy} value={policy}>
                  {CANCELLATION_POLICY_LABELS[policy]}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Esercente sulle ricevute"
            hint="Una riga ciascuno: ragione sociale, indirizzo, P.IVA."
          >
            <textarea
              className="adm-input"
              rows={3}
              maxLength={500}
              value={settings.RECEIPT_MERCHANT}
              onChange={(e) => set('RECEIPT_MERCHANT', e.target.value)}
            />
          </Field>
          <Field label="IVA inclusa nei prezzi (%)" hint="Stampata sulle ricevute; 0 per nessuna riga IVA.">
            <input
              className="adm-input"
              type="number"
              min={0}
              max={100}
              step={0.01}
              value={settings.RECEIPT_VAT_PERCENT}
              onChange={(e) => set('RECEIPT_VAT_PERCENT', Number(e.target.value))}
            />
          </Field>
          <Field
            label="Misure interne locker standard"
            hint="Mostrate ai clienti nella scelta della dimensione, es. 35 × 45 × 60 cm; vuoto per non mostrarle."
          >
            <input
              className="adm-input"
              maxLength={MAX_DIMENSIONS_LENGTH}
              value={settings.LOCKER_DIMENSIONS_STANDARD}
              onChange={(e) => set('LOCKER_DIMENSIONS_STANDARD', e.target.value)}
            />
          </Field>
          <Field label="Misure interne locker grande" hint="Come sopra, per i locker grandi.">
            <input
              className="adm-input"
              maxLength={MAX_DIMENSIONS_LENGTH}
              value={settings.LOCKER_DIMENSIONS_LARGE}
              onChange={(e) => set('LOCKER_DIMENSIONS_LARGE', e.target.value)}
            />
          </Field>
          <div className="adm-grid-2">
            <Field
              label="Allarme bridge offline dopo (minuti)"
              hint="Gli operatori ricevono un allarme e un'e-mail se il bridge di una sede resta offline così a lungo."
            >
              <input
                className="adm-input"
                type="number"
                min={1}
                max={1440}
                value={settings.ALERT_BRIDGE_OFFLINE_MINUTES}
                onChange={(e) =>
                  set('ALERT_BRIDGE_OFFLINE_MINUTES', Number.parseInt(e.target.value, 10) || 0)
                }
              />
            </Field>
            <Field
              label="Allarme porta aperta dopo (minuti)"
              hint="Lo stesso per lo sportello di un locker lasciato aperto."
            >
              <input
                className="adm-input"
                type="number"
                min={1}
                max={1440}
                value={settings.ALERT_DOOR_OPEN_MINUTES}
                onChange={(e) => set('ALERT_DOOR_OPEN_MINUTES', Number.parseInt(e.target.value, 10) || 0)}
              />
            </Field>
          </div>
          <button type="submit" className="adm-btn adm-btn-primary adm-btn-block" disabled={saving}>
            {saving ? 'Salvataggio…' : 'Salva parametri'}
          </button>
        </Card>
      </div>
    </form>
  );
}
