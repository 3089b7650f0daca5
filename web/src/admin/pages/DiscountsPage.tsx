import { discountRoutes, type DiscountCode } from '@deposito/protocol';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { adminCall, refusalText } from '../admin-api';
import { PageNoticeBar, listOf, useEditingPage, type PageNotices } from '../components/page-notices';
import { Card, Field, HiddenHeader, Listed, PageHeader, TableRegion } from '../components/ui';
import { formatEuro } from '../format';
import { checkedRegister, formSubmit, useAdminForm } from '../forms/admin-form';
import {
  DISCOUNT_NAMES,
  EMPTY_DISCOUNT_FORM,
  discountEditFormSchema,
  discountFormOf,
  newDiscountFormSchema,
  type DiscountForm,
} from '../forms/discount-form';
import { adminQueries } from '../query/queries';
import { useRouteMutation } from '../query/use-admin-mutation';
import { useConfirmedMutation } from '../query/use-confirmed-mutation';
import { FormInput } from '../components/form-fields';

function failure(error: unknown, fallback: string): string {
  return refusalText(error, fallback, 'Errore di rete o server non raggiungibile');
}

/** The fields of a code, new or edited, in one react-hook-form form. */
function DiscountFields({ form }: { form: UseFormReturn<DiscountForm, unknown, unknown> }) {
  const { watch } = form;
  const register = checkedRegister(form);
  return (
    <div className="adm-grid-4">
      <FormInput form={form} name="code" label="Codice" placeholder="ESTATE20" />
      <FormInput form={form} name="description" label="Descrizione" />
      <Field label="Tipo">
        <select className="adm-input" {...register('kind')}>
          <option value="percent">Percentuale (%)</option>
          <option value="amount">Importo (€)</option>
        </select>
      </Field>
      <FormInput
        form={form}
        name="value"
        label={watch('kind') === 'percent' ? 'Valore (%)' : 'Valore (€)'}
        inputMode="decimal"
      />
      <FormInput form={form} name="validFrom" label="Valido dal" type="date" />
      <FormInput form={form} name="validTo" label="Valido fino al" type="date" />
      <FormInput form={form} name="minDays" label="Giorni minimi" type="number" min={1} />
      <label className="adm-check adm-check-field">
        <input type="checkbox" {...register('usableOnce')} />
        Utilizzabile una sola volta
      </label>
    </div>
  );
}

const DISCOUNT_KEYS = [adminQueries.discounts().queryKey];

/** Nuovo codice: the form empties once the code is created. */
function NewDiscountCard({ notices }: { notices: PageNotices }) {
  const form = useAdminForm(newDiscountFormSchema, EMPTY_DISCOUNT_FORM, DISCOUNT_NAMES);
  const create = useRouteMutation(discountRoutes.create, DISCOUNT_KEYS);

  const submit = formSubmit(form, notices.error, async (body) => {
    try {
      await create.mutateAsync(body);
      notices.success(`Codice ${body.code} creato`);
      form.reset(EMPTY_DISCOUNT_FORM);
    } catch (error) {
      notices.error(failure(error, 'Errore durante la creazione'));
    }
  });

  return (
    <Card title="Nuovo codice">
      <form noValidate onSubmit={submit} className="adm-form">
        <DiscountFields form={form} />
        <div className="adm-form-actions">
          <button type="submit" className="adm-btn adm-btn-primary" disabled={create.isPending}>
            Crea codice
          </button>
        </div>
      </form>
    </Card>
  );
}

/** One edit in place: usage is kept, and a save from an older read is refused (`edit/stale`). */
function DiscountEditRow({
  discount,
  notices,
  onClose,
}: {
  discount: DiscountCode;
  notices: PageNotices;
  onClose: () => void;
}) {
  // The version this form was filled from: a refetch meanwhile must not move it.
  const [schema] = useState(() => discountEditFormSchema(discount.version ?? 1));
  const form = useAdminForm(schema, discountFormOf(discount), DISCOUNT_NAMES);
  const update = useRouteMutation(discountRoutes.update, DISCOUNT_KEYS, { code: discount.code });

  const save = formSubmit(form, notices.error, async (body) => {
    try {
      await update.mutateAsync(body);
      notices.success(`Codice ${body.code} aggiornato`);
      onClose();
    } catch (error) {
      notices.refused(error, failure(error, 'Errore salvataggio'));
    }
  });

  return (
    <tr className="adm-row-open">
      <td colSpan={7}>
        <DiscountFields form={form} />
        <div className="adm-form-actions">
          <button type="button" className="adm-btn adm-btn-ghost" onClick={onClose}>
            Annulla
          </button>
          <button type="button" className="adm-btn adm-btn-primary" onClick={() => save()}>
            Salva
          </button>
        </div>
      </td>
    </tr>
  );
}

function DiscountRow({
  discount,
  onEdit,
  onRemove,
}: {
  discount: DiscountCode;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <tr>
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
        <button type="button" className="adm-link" onClick={onEdit}>
          Modifica
        </button>
        <button type="button" className="adm-link adm-link-danger" onClick={onRemove}>
          Elimina
        </button>
      </td>
    </tr>
  );
}

export function DiscountsPage() {
  const { notices, query, failed } = useEditingPage(
    adminQueries.discounts(),
    'Errore nel caricamento dei codici',
  );
  const codes = listOf(query);
  /** The code whose row is open for editing. */
  const [editing, setEditing] = useState<string | null>(null);
  const remove = useConfirmedMutation(
    (code: string) => adminCall(discountRoutes.delete, { params: { code } }),
    DISCOUNT_KEYS,
    {
      ask: (code) => ({
        title: `Eliminare il codice ${code}?`,
        text: 'I clienti non potranno più usarlo; le prenotazioni già fatte con il codice restano come sono.',
        confirmLabel: 'Elimina',
      }),
      onDone: (code) => notices.success(`Codice ${code} eliminato`),
      onFailed: (error) => notices.error(failure(error, 'Errore durante la cancellazione')),
    },
  );

  return (
    <>
      {remove.dialog}
      <PageHeader
        title="Gestione Codici Sconto"
        subtitle="Codici percentuali o a importo fisso, con validità e limiti"
      />
      <PageNoticeBar
        notices={notices}
        failed={failed}
        onReload={() => {
          setEditing(null);
          void query.refetch();
        }}
      />
      <NewDiscountCard notices={notices} />
      <Card title={`Codici esistenti${codes ? ` (${codes.length})` : ''}`}>
        <Listed items={codes} empty="Nessun codice sconto">
          {(codes) => (
            <TableRegion
              label="Tabella codici sconto"
              head={
                <>
                  <th>Codice</th>
                  <th>Descrizione</th>
                  <th className="adm-num">Sconto</th>
                  <th>Validità</th>
                  <th>Uso singolo</th>
                  <th className="adm-num">Giorni min.</th>
                  <HiddenHeader>Azioni</HiddenHeader>
                </>
              }
            >
              {codes.map((discount) =>
                editing === discount.code ? (
                  <DiscountEditRow
                    key={discount.code}
                    discount={discount}
                    notices={notices}
                    onClose={() => setEditing(null)}
                  />
                ) : (
                  <DiscountRow
                    key={discount.code}
                    discount={discount}
                    onEdit={() => setEditing(discount.code)}
                    onRemove={() => remove.run(discount.code)}
                  />
                ),
              )}
            </TableRegion>
          )}
        </Listed>
      </Card>
    </>
  );
}
