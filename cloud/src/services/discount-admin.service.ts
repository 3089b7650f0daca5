import {
  centsToEuros,
  eurosToCents,
  type DiscountCode,
  type DiscountCodeInput,
  type DiscountCodeUpdate,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { DiscountRecord, NewDiscount } from '../store/discount.repository';
import type { Store } from '../store/store';
import { describeChanges, type AdminActivityLog } from './admin-activity.service';
import type { AdminIdentity } from './auth.service';
import { staleEditError } from './stale-edit';

/** A stored code as the admin list shows it: percent or euros, `timesUsed` 1 once a single-use code is taken. */
export function toDiscountCode(record: DiscountRecord): DiscountCode {
  return {
    code: record.code,
    description: record.description,
    discountPercent: record.percent,
    discountEuro: record.amountCents === null ? null : centsToEuros(record.amountCents),
    validFrom: record.validFrom,
    validTo: record.validTo,
    usableOnce: record.usableOnce,
    minDays: record.minDays,
    timesUsed: record.usedAt ? 1 : 0,
    version: record.edit.version,
  };
}

type ParsedDiscountInput = Required<Pick<DiscountCodeInput, 'code'>> & {
  description: string;
  discountPercent?: number | null;
  discountEuro?: number | null;
  validFrom: string | null;
  validTo: string | null;
  usableOnce: boolean;
  minDays?: number | null;
};

type ParsedDiscountUpdate = ParsedDiscountInput & Pick<DiscountCodeUpdate, 'version'>;

function termsOf(input: ParsedDiscountInput): NewDiscount {
  return {
    code: input.code.trim(),
    description: input.description,
    percent: input.discountPercent ?? null,
    amountCents: input.discountEuro == null ? null : eurosToCents(input.discountEuro),
    validFrom: input.validFrom,
    validTo: input.validTo,
    usableOnce: input.usableOnce,
    minDays: input.minDays ?? null,
  };
}

const valueText = (input: ParsedDiscountInput) =>
  input.discountPercent != null ? `${input.discountPercent}%` : `€${input.discountEuro}`;

/**
 * Gestione Codici Sconto: list, create, edit in place (usage kept, version checked), delete (never
 * while a checkout in progress carries the code).
 */
export class DiscountAdminService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly activity: AdminActivityLog,
  ) {}

  async list(): Promise<DiscountCode[]> {
    return (await this.store.discounts.list()).map(toDiscountCode);
  }

  async create(actor: AdminIdentity, input: ParsedDiscountInput): Promise<DiscountCode> {
    const terms = termsOf(input);
    const created = await this.store.discounts.create(terms, this.clock.now(), actor.email);
    if (!created) throw new AppError('discount/already_exists', `Il codice ${terms.code} esiste già`);
    await this.activity.record(
      actor,
      'admin/discount_created',
      `Codice sconto ${terms.code} creato (${valueText(input)})`,
    );
    const record = await this.store.discounts.get(terms.code);
    return toDiscountCode(record!);
  }

  /** The body was validated whole before this runs: a refused edit never reaches the store. */
  async update(actor: AdminIdentity, code: string, input: ParsedDiscountUpdate): Promise<DiscountCode> {
    const terms = termsOf(input);
    const before = await this.store.discounts.get(code);
    const result = await this.store.discounts.update(
      code,
      terms,
      { actor: actor.email, expectedVersion: input.version },
      this.clock.now(),
    );
    if (!result.ok) {
      switch (result.reason) {
        case 'not_found':
          throw new AppError('discount/not_found', `Il codice ${code} non esiste`);
        case 'already_exists':
          throw new AppError('discount/already_exists', `Il codice ${terms.code} esiste già`);
        case 'in_use':
          throw new AppError(
            'discount/in_use',
            `Il codice ${code} è in uso in un pagamento in corso: non può essere rinominato ora`,
          );
        case 'stale':
          throw staleEditError(`Il codice ${code} è stato modificato`, result.current);
      }
    }
    const renamed = terms.code !== code ? ` (ora ${terms.code})` : '';
    const after = (await this.store.discounts.get(terms.code))!;
    const changes = before ? describeChanges(termsView(before), termsView(after)) : '';
    await this.activity.record(
      actor,
      'admin/discount_updated',
      `Codice sconto ${code} modificato${renamed} (${valueText(input)})${changes ? `: ${changes}` : ''}`,
    );
    return toDiscountCode(after);
  }

  async delete(actor: AdminIdentity, code: string): Promise<void> {
    const outcome = await this.store.discounts.deleteUnlessInUse(code);
    if (outcome === 'not_found') throw new AppError('discount/not_found', `Il codice ${code} non esiste`);
    if (outcome === 'in_use') {
      throw new AppError(
        'discount/in_use',
        `Il codice ${code} è in uso in un pagamento in corso: riprova quando la prenotazione sarà pagata o scaduta`,
      );
    }
    await this.activity.record(actor, 'admin/discount_deleted', `Codice sconto ${code} eliminato`);
  }
}

/** A code's terms as the audit trail compares them (not its use or bookkeeping). */
function termsView(record: DiscountRecord) {
  const { usedAt: _usedAt, usedBy: _usedBy, createdAt: _createdAt, edit: _edit, ...terms } = record;
  return terms;
}
