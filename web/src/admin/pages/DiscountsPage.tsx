import { discountRoutes, type DiscountCode } from '@deposito/protocol';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { useConfirm } from '../components/use-confirm';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { StaleNotice, staleEditMessage } from '../components/StaleNotice';
import { Card, Empty, Field, Loading, Notice, PageHeader, type NoticeMessage } from '../components/ui';
import { formatEuro } from '../format';

interface DiscountForm {
  code: string;
  description: string;
  kind: 'percent' | 'amount';
  value: string;
  validFrom: string;
  validTo: string;
  usableOnce: boolean;
  minDays: string;
}

const EMPTY_FORM: DiscountForm = {
  code: '',
  description: '',
  kind: 'percent',
  value: '',
  validFrom: '',
  validTo: '',
  usableOnce: false,
  minDays: '',
};

function formOf(discount: DiscountCode): DiscountForm {
  return {
    code: discount.code,
    description: discount.description,
    kind: discount.discountPercent != null ? 'percent' : 'amount',
    value: String(discount.discountPercent ?? discount.discountEuro ?? ''),
    validFrom: discount.validFrom ?? '',
    validTo: discount.validTo ?? '',
    usableOnce: discount.usableOnce,
    minDays: discount.minDays ? String(discount.minDays) : '',
  };
}

/**
 * The spec's payload from the form: the code trimmed, a numeric value (percent sends
 * discountPercent, amount discountEuro), dates null when empty, minDays an integer when entered.
 */
export function discountPayload(form: DiscountForm) {
  const code = form.code.trim();
  const value = Number.parseFloat(form.value.replace(',', '.'));
  if (!code || Number.isNaN(value)) return { ok: false, error: 'Codice e valore sono obbligatori' } as const;
  const minDays = Number.parseInt(form.minDays, 10);
  return {
    ok: true,
    body: {
      code,
      description: form.description.trim(),
      ...(form.kind === 'percent' ? { discountPercent: value } : { discountEuro: value }),
      validFrom: form.validFrom || null,
      validTo: form.validTo || null,
      usableOnce: form.usableOnce,
      minDays: Number.isNaN(minDays) ? null : minDays,
    },
  } as const;
}

function failure(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === CLIENT_ERROR_CODES.network || error.code === CLIENT_ERROR_CODES.timeout) {
      return 'Errore di rete o server non raggiungibile';
    }
    if (!error.code.startsWith('client/') && error.message) return error.message;
  }
  return fallback;
}

function DiscountFields({ form, onChange }: { form: DiscountForm; onChange: (form: DiscountForm) => void }) {
  const set = <K extends keyof DiscountForm>(key: K, value: DiscountForm[K]) =>
    onChange({ ...form, [key]: value });
  return (
    <div className="adm-grid-4">
      <Field label="Codice">
        <input
          className="adm-input"
          value={form.code}
          onChange={(e) => set('code', e.target.value)}
          placeholder="ESTATE20"
        />
      </Field>
      <Field label="Descrizione">
        <input
          className="adm-input"
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
        />
      </Field>
      <Field label="Tipo">
        <select
          className="adm-input"
          value={form.kind}
          onChange={(e) => set('kind', e.target.value as DiscountForm['kind'])}
        >
          <option value="percent">Percentuale (%)</option>
          <option value="amount">Importo (€)</option>
        </select>
      </Field>
      <Field label={form.kind === 'percent' ? 'Valore (%)' : 'Valore (€)'}>
        <input
          className="adm-input"
          inputMode="decimal"
          value={form.value}
          onChange={(e) => set('value', e.target.value)}
        />
      </Field>
      <Field label="Valido dal">
        <input
          className="adm-input"
          type="date"
          value={form.validFrom}
          onChange={(e) => set('validFrom', e.target.value)}
        />
      </Field>
      <Field label="Valido fino al">
        <input
          className="adm-input"
          type="date"
          value={form.validTo}
          onChange={(e) => set('validTo', e.target.value)}
        />
      </Field>
      <Field label="Giorni minimi">
        <input
          className="adm-input"
          type="number"
          min={1}
          value={form.minDays}
          onChange={(e) => set('minDays', e.target.value)}
        />
      </Field>
      <label className="adm-check adm-check-field">
        <input
          type="checkbox"
          checked={form.usableOnce}
          onChange={(e) => set('usableOnce', e.target.checked)}
        />
        Utilizzabile una sola volta
      </label>
    </div>
  );
}

export function DiscountsPage() {
  const confirm = useConfirm();
  const [codes, setCodes] = useState<DiscountCode[] | null>(null);
  const [form, setForm] = useState<DiscountForm>(EMPTY_FORM);
  const [editing, setEditing] = useState<{ original: string; version: number; form: DiscountForm } | null>(
    null,
  );
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setCodes(await adminCall(discountRoutes.list, {}));
    } catch {
      setCodes((current) => current ?? []);
      setMessage({ tone: 'error', text: 'Errore nel caricamento dei codici' });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const payload = discountPayload(form);
    if (!payload.ok) {
      setMessage({ tone: 'error', text: payload.error });
      return;
    }
    setBusy(true);
    try {
      await adminCall(discountRoutes.create, { body: payload.body });
      setMessage({ tone: 'success', text: `Codice ${payload.body.code} creato` });
      setForm(EMPTY_FORM);
      await load();
    } catch (error) {
      setMessage({ tone: 'error', text: failure(error, 'Errore durante la creazione') });
    } finally {
      setBusy(false);
    }
  }

  async function remove(code: string) {
    const confirmed = await confirm.ask({
      title: `Eliminare il codice ${code}?`,
      text: 'I clienti non potranno più usarlo; le prenotazioni già fatte con il codice restano come sono.',
      confirmLabel: 'Elimina',
    });
    if (!confirmed) return;
    try {
      await adminCall(discountRoutes.delete, { params: { code } });
      setMessage({ tone: 'success', text: `Codice ${code} eliminato` });
      await load();
    } catch (error) {
      setMessage({ tone: 'error', text: failure(error, 'Errore durante la cancellazione') });
    }
  }

  /** One edit in place: usage is kept, and a save from an older read is refused (`edit/stale`). */
  async function saveEdit() {
    if (!editing) return;
    const payload = discountPayload(editing.form);
    if (!payload.ok) {
      setMessage({ tone: 'error', text: payload.error });
      return;
    }
    try {
      await adminCall(discountRoutes.update, {
        params: { code: editing.original },
        body: { ...payload.body, version: editing.version },
      });
      setMessage({ tone: 'success', text: `Codice ${payload.body.code} aggiornato` });
      setEditing(null);
      await load();
    } catch (error) {
      const staleText = staleEditMessage(error);
      if (staleText) setStale(staleText);
      else setMessage({ tone: 'error', text: failure(error, 'Errore salvataggio') });
    }
  }

  async function reload() {
    setStale(null);
    setEditing(null);
    await load();
  }

  return (
    <>
      {confirm.dialog}
      <PageHeader
        title="Gestione Codici Sconto"
        subtitle="Codici percentuali o a importo fisso, con validità e limiti"
      />
      <Notice message={message} onClose={() => setMessage(null)} />
      <StaleNotice message={stale} onReload={() => void reload()} />
      <Card title="Nuovo codice">
        <form onSubmit={create} className="adm-form">
          <DiscountFields form={form} onChange={setForm} />
          <div className="adm-form-actions">
            <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>
              Crea codice
            </button>
          </div>
        </form>
      </Card>
      <Card title={`Codici esistenti${codes ? ` (${codes.length})` : ''}`}>
        {codes === null ? (
          <Loading />
        ) : codes.length === 0 ? (
          <Empty>Nessun codice sconto</Empty>
        ) : (
          <div className="adm-table-wrap" tabIndex={0} role="region" aria-label="Tabella codici sconto">
            <table className="adm-table">
              <thead>
                <tr>
                  <th>Codice</th>
                  <th>Descrizione</th>
                  <th className="adm-num">Sconto</th>
                  <th>Validità</th>
                  <th>Uso singolo</th>
                  <th className="adm-num">Giorni min.</th>
                  <th>
                    <span className="visually-hidden">Azioni</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {codes.map((discount) =>
                  editing?.original === discount.code ? (
                    <tr key={discount.code} className="adm-row-open">
                      <td colSpan={7}>
                        <DiscountFields
                          form={editing.form}
                          onChange={(next) => setEditing({ ...editing, form: next })}
                        />
                        <div className="adm-form-actions">
                          <button
                            type="button"
                            className="adm-btn adm-btn-ghost"
                            onClick={() => setEditing(null)}
                          >
                            Annulla
                          </button>
                          <button
                            type="button"
                            className="adm-btn adm-btn-primary"
                            onClick={() => void saveEdit()}
                          >
                            Salva
                          </button>
                        </div>
                      </td>
                    </tr>
                  ) : (
                    <tr key={discount.code}>
                      <td className="adm-mono">
                        <strong>{discount.code}</strong>
                      </td>
                      <td className="adm-ellipsis">{discount.description || '–'}</td>
                      <td className="adm-num">
                        {discount.discountPercent != null
                          ? `${discount.discountPercent}%`
                          : formatEuro(discount.discountEuro)}
                      </td>
                      <td className="adm-nowrap">
                        {discount.validFrom || discount.validTo
                          ? `${discount.validFrom ?? '…'} → ${discount.validTo ?? '…'}`
                          : 'Sempre'}
                      </td>
                      <td>{discount.usableOnce ? (discount.timesUsed ? 'Sì (usato)' : 'Sì') : 'No'}</td>
                      <td className="adm-num">{discount.minDays ?? '–'}</td>
                      <td className="adm-row-actions">
                        <button
                          type="button"
                          className="adm-link"
                          onClick={() =>
                            setEditing({
                              original: discount.code,
                              version: discount.version ?? 1,
                              form: formOf(discount),
                            })
                          }
                        >
                          Modifica
                        </button>
                        <button
                          type="button"
                          className="adm-link adm-link-danger"
                          onClick={() => void remove(discount.code)}
                        >
                          Elimina
                        </button>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
