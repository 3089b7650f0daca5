import {
  MAX_BLOCK_WINDOWS,
  settingsRoutes,
  systemSettingsPatchSchema,
  type SystemSettings,
  type SystemSettingsPatch,
} from '@deposito/protocol';
import { VISITOR_CANCELLATION_POLICIES } from '@deposito/protocol/booking/cancellation-policy';
import { MAX_DIMENSIONS_LENGTH } from '@deposito/protocol/schemas/limits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { adminCall } from '../admin-api';
import { PageNoticeBar, useEditingPage, type PageNotices } from '../components/page-notices';
import { checkedRegister, formSubmit, useAdminForm, type FormNames } from '../forms/admin-form';
import { Card, Field, HiddenHeader, Loading, Notice, SubmitButton } from '../components/ui';
import { adminQueries } from '../query/queries';
import { Options } from '../../components/Options';
import { FormInput } from '../components/form-fields';

const CANCELLATION_POLICY_LABELS: Record<SystemSettings['VISITOR_CANCELLATION_POLICY'], string> = {
  future_days_until_start: 'Prenotazioni per un altro giorno, fino all’inizio',
  until_start: 'Tutte le prenotazioni, fino all’inizio',
  never: 'Mai online',
};

type SettingsForm = UseFormReturn<SystemSettings, unknown, unknown>;

const asInt = (value: string) => Number.parseInt(value, 10) || 0;

/** A block window's two times, in the order of the table's columns, with their label's words. */
const WINDOW_ENDS = [
  ['from', 'dalle'],
  ['to', 'alle'],
] as const;

/** "Finestra 2 dalle": one time of a block window, as its input and the schema's texts name it. */
function windowLabel(index: number, words: string): string {
  return `Finestra ${index + 1} ${words}`;
}

/** The parameters by the path the protocol's schema checks, for its texts. */
function settingsNames(windows: number): FormNames {
  const labels: Record<string, string> = {
    BOOKING_EXPIRATION_MINUTES: 'Scadenza prenotazione (minuti)',
    FASTTRACK_FROM: 'Fast Track dalle',
    FASTTRACK_TO: 'Fast Track alle',
    RECEIPT_MERCHANT: 'Esercente sulle ricevute',
    RECEIPT_VAT_PERCENT: 'IVA inclusa nei prezzi (%)',
    LOCKER_DIMENSIONS_STANDARD: 'Misure interne locker standard',
    LOCKER_DIMENSIONS_LARGE: 'Misure interne locker grande',
    ALERT_BRIDGE_OFFLINE_MINUTES: 'Allarme bridge offline dopo (minuti)',
    ALERT_DOOR_OPEN_MINUTES: 'Allarme porta aperta dopo (minuti)',
  };
  for (let index = 0; index < windows; index += 1) {
    for (const [end, words] of WINDOW_ENDS)
      labels[`BLOCK_WINDOWS.${index}.${end}`] = windowLabel(index, words);
  }
  return { labels };
}

const SETTINGS_NAMES = settingsNames(MAX_BLOCK_WINDOWS);

function BlockWindowsCard({ form }: { form: SettingsForm }) {
  const windows = useFieldArray({ control: form.control, name: 'BLOCK_WINDOWS' });
  return (
    <Card title="Finestre di blocco" className="adm-split-main">
      <p className="adm-muted adm-small">
        Nelle finestre di blocco le pagine di prenotazione mostrano la manutenzione (ora locale della sede;
        una finestra che finisce prima di iniziare passa la mezzanotte).
      </p>
      <table className="adm-table adm-table-compact">
        <thead>
          <tr>
            <th>Dalle</th>
            <th>Alle</th>
            <HiddenHeader>Azioni</HiddenHeader>
          </tr>
        </thead>
        <tbody>
          {windows.fields.map((window, index) => (
            <tr key={window.id}>
              {WINDOW_ENDS.map(([end, words]) => (
                <td key={end}>
                  <input
                    className="adm-input"
                    type="time"
                    aria-label={windowLabel(index, words)}
                    {...checkedRegister(form)(`BLOCK_WINDOWS.${index}.${end}`)}
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="adm-icon-btn"
                  aria-label="Rimuovi finestra"
                  onClick={() => windows.remove(index)}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
          {windows.fields.length === 0 ? (
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
        onClick={() => windows.append({ from: '00:00', to: '06:00' })}
      >
        + Aggiungi finestra
      </button>
    </Card>
  );
}

/** The booking pages' switches and the visitors' cancellation. */
function BookingSwitches({ form }: { form: SettingsForm }) {
  const register = checkedRegister(form);
  return (
    <>
      <FormInput
        form={form}
        name="BOOKING_EXPIRATION_MINUTES"
        label="Scadenza prenotazione (minuti)"
        type="number"
        min={1}
        max={240}
        options={{ setValueAs: asInt }}
      />
      <div className="adm-grid-2">
        <FormInput form={form} name="FASTTRACK_FROM" label="Fast Track dalle" type="time" />
        <FormInput form={form} name="FASTTRACK_TO" label="Fast Track alle" type="time" />
      </div>
      <label className="adm-switch">
        <input type="checkbox" {...register('MAINTENANCE_MODE')} />
        <span>Modalità manutenzione</span>
      </label>
      <label className="adm-switch">
        <input type="checkbox" {...register('ALWAYS_SHOW_FAST_TRACK')} />
        <span>Mostra sempre Fast Track</span>
      </label>
      <label className="adm-switch">
        <input type="checkbox" {...register('SHOW_NIGHT_BUTTON_TEST')} />
        <span>Pulsante test prenotazione notturna</span>
      </label>
      <Field
        label="Annullamento online"
        hint="Quando i clienti possono annullare dalla pagina della prenotazione, con rimborso."
      >
        <select className="adm-input" {...register('VISITOR_CANCELLATION_POLICY')}>
          <Options
            items={VISITOR_CANCELLATION_POLICIES}
            label={(policy) => CANCELLATION_POLICY_LABELS[policy]}
          />
        </select>
      </Field>
    </>
  );
}

/** After how many minutes of each trouble operators are alerted. */
const ALERT_DELAYS = [
  {
    name: 'ALERT_BRIDGE_OFFLINE_MINUTES',
    label: 'Allarme bridge offline dopo (minuti)',
    hint: "Gli operatori ricevono un allarme e un'e-mail se il bridge di una sede resta offline così a lungo.",
  },
  {
    name: 'ALERT_DOOR_OPEN_MINUTES',
    label: 'Allarme porta aperta dopo (minuti)',
    hint: 'Lo stesso per lo sportello di un locker lasciato aperto.',
  },
] as const;

/** What the receipts print, the lockers' sizes shown to visitors, and when operators are alerted. */
function ReceiptAndAlertFields({ form }: { form: SettingsForm }) {
  const register = checkedRegister(form);
  return (
    <>
      <Field label="Esercente sulle ricevute" hint="Una riga ciascuno: ragione sociale, indirizzo, P.IVA.">
        <textarea className="adm-input" rows={3} maxLength={500} {...register('RECEIPT_MERCHANT')} />
      </Field>
      <FormInput
        form={form}
        name="RECEIPT_VAT_PERCENT"
        label="IVA inclusa nei prezzi (%)"
        hint="Stampata sulle ricevute; 0 per nessuna riga IVA."
        type="number"
        min={0}
        max={100}
        step={0.01}
        options={{ setValueAs: Number }}
      />
      <FormInput
        form={form}
        name="LOCKER_DIMENSIONS_STANDARD"
        label="Misure interne locker standard"
        hint="Mostrate ai clienti nella scelta della dimensione, es. 35 × 45 × 60 cm; vuoto per non mostrarle."
        maxLength={MAX_DIMENSIONS_LENGTH}
      />
      <FormInput
        form={form}
        name="LOCKER_DIMENSIONS_LARGE"
        label="Misure interne locker grande"
        hint="Come sopra, per i locker grandi."
        maxLength={MAX_DIMENSIONS_LENGTH}
      />
      <div className="adm-grid-2">
        {ALERT_DELAYS.map((delay) => (
          <FormInput
            key={delay.name}
            form={form}
            {...delay}
            type="number"
            min={1}
            max={1440}
            options={{ setValueAs: asInt }}
          />
        ))}
      </div>
    </>
  );
}

/**
 * The settings as read, in one form. The save sends back their version, so another operator's save
 * is never reverted; the stored answer replaces the query's data (and so this form, keyed by version).
 */
function SystemSettingsForm({ settings, notices }: { settings: SystemSettings; notices: PageNotices }) {
  const queryClient = useQueryClient();
  // The protocol's patch schema checks the whole form (windows, fast track, bounds) as the server will.
  const form = useAdminForm<SystemSettings, SystemSettingsPatch>(
    systemSettingsPatchSchema,
    settings,
    SETTINGS_NAMES,
  );
  const save = useMutation({
    mutationFn: (body: SystemSettingsPatch) => adminCall(settingsRoutes.updateSystem, { body }),
    onSuccess: (saved) => queryClient.setQueryData(adminQueries.systemSettings().queryKey, saved),
  });

  const submit = formSubmit(form, notices.error, async (body) => {
    try {
      await save.mutateAsync(body);
      notices.success('Impostazioni salvate');
    } catch (error) {
      const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
      notices.refused(error, `Errore durante il salvataggio delle impostazioni${detail}`);
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <div className="adm-split">
        <BlockWindowsCard form={form} />
        <Card title="Parametri" className="adm-split-side">
          <BookingSwitches form={form} />
          <ReceiptAndAlertFields form={form} />
          <SubmitButton pending={save.isPending} busy="Salvataggio…" block>
            Salva parametri
          </SubmitButton>
        </Card>
      </div>
    </form>
  );
}

/** Parametri di sistema: block windows, expiry, maintenance and fast track, as the booking pages apply them. */
export function SystemSettingsPage() {
  const { notices, query, failed } = useEditingPage(
    adminQueries.systemSettings(),
    'Errore nel caricamento configurazione',
  );
  if (!query.data) {
    return (
      <>
        <Notice message={failed} />
        {failed ? null : <Loading />}
      </>
    );
  }
  return (
    <>
      <PageNoticeBar
        notices={notices}
        onReload={() => {
          notices.setMessage(null);
          void query.refetch();
        }}
      />
      <SystemSettingsForm key={query.data.version ?? 0} settings={query.data} notices={notices} />
    </>
  );
}
