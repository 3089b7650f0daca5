import { DEFAULT_TIMEZONE } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { AppError } from '../errors';
import type { EditStamp } from '../store/edit-stamp';

/**
 * The 409 `edit/stale` for an operator's save made from an older read: an Italian message naming
 * who saved last and when (Rome time, like the rest of the admin area), and the same in details so
 * a page can offer to reload. `changed` says what changed, e.g. "La sede vicolo è stata modificata".
 */
export function staleEditError(changed: string, current: EditStamp): AppError {
  const who = current.updatedBy ?? 'un altro operatore';
  const when = current.updatedAt
    ? ` il ${DateTime.fromJSDate(current.updatedAt, { zone: DEFAULT_TIMEZONE }).toFormat("dd/MM/yyyy 'alle' HH:mm")}`
    : '';
  return new AppError(
    'edit/stale',
    `${changed} da ${who}${when}, dopo che hai aperto questa pagina: ricarica per vedere le modifiche (le tue non sono state salvate)`,
    {
      version: current.version,
      updatedBy: current.updatedBy,
      updatedAt: current.updatedAt?.toISOString() ?? null,
    },
  );
}
