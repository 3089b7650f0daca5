import {
  createLocationRequestSchema,
  updateLocationRequestSchema,
  zLocationKey,
  type Location,
} from '@deposito/protocol';
import { z } from 'zod';
import { FORM_ERROR_CODES } from '../error-text';
import {
  EMPTY_PRICING_ROWS,
  intOrZero,
  parseLockerList,
  pricingLabels,
  pricingRowsSchema,
  pricingToRows,
  type PricingRows,
} from '../location-form';
import type { FormNames } from './admin-form';

export interface LocationForm {
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

export const NEW_LOCATION_FORM: LocationForm = {
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

export function locationFormOf(location: Location): LocationForm {
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

const text = z.string();
const locationFormFields = z.object({
  id: text,
  key: text,
  nome: text,
  indirizzo: text,
  timezone: text,
  recipient: text,
  port: text,
  mastercode: text,
  endpoint: text,
  standard: text,
  large: text,
  maxStandard: text,
  maxLarge: text,
  apertura: text,
  chiusura: text,
  manutenzione: z.boolean(),
  pricing: pricingRowsSchema,
});
type LocationFormRead = z.output<typeof locationFormFields>;
type LocationUpdateBody = z.input<typeof updateLocationRequestSchema>;
type LocationCreateBody = z.input<typeof createLocationRequestSchema>;

/** The location's fields as the API takes them (admin spec §5: lists parsed, integers default 0). */
function fieldsOf(form: LocationFormRead) {
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
    pricing: form.pricing,
  } satisfies LocationUpdateBody;
}

/**
 * A new location's id (required) and key (the id when empty): the protocol's key rule, its reserved
 * words named by their own code, any other miss by the form's one text for the key's format.
 */
function checkIdentity(form: LocationFormRead, ctx: z.RefinementCtx) {
  const id = form.id.trim();
  if (!id) {
    ctx.addIssue({ code: 'custom', path: ['id'], params: { code: FORM_ERROR_CODES.locationIdRequired } });
    return;
  }
  for (const [field, value] of [
    ['id', id],
    ['key', form.key.trim() || id],
  ] as const) {
    const checked = zLocationKey.safeParse(value);
    if (checked.success) continue;
    const own = checked.error.issues.find((issue) => issue.code === 'custom');
    const code = own?.code === 'custom' ? own.params?.code : FORM_ERROR_CODES.locationKeyFormat;
    ctx.addIssue({ code: 'custom', path: [field], params: { code } });
    return;
  }
}

/** Nuova sede: the form read into the create request, checked as the server will. */
export const newLocationFormSchema = locationFormFields
  .superRefine(checkIdentity)
  .transform((form): LocationCreateBody => {
    const id = form.id.trim();
    return { id, key: form.key.trim() || id, ...fieldsOf(form) };
  })
  .pipe(createLocationRequestSchema);

/** An edit of a location (its id and key stay): the fields as the update request takes them. */
export const locationEditFormSchema = locationFormFields
  .transform((form): LocationUpdateBody => fieldsOf(form))
  .pipe(updateLocationRequestSchema);

/** The form's fields by the path of what the API checks. */
export const LOCATION_NAMES: FormNames = {
  labels: {
    id: 'ID interno',
    key: 'Key',
    nome: 'Nome',
    indirizzo: 'Indirizzo',
    timezone: 'Fuso orario',
    recipient: 'Recipient (IP controller)',
    port: 'Porta',
    mastercode: 'Mastercode',
    endpoint: 'Endpoint',
    'lockerStructure.standard': 'Locker standard',
    'lockerStructure.large': 'Locker grandi',
    'maxOnline.standard': 'Max online standard',
    'maxOnline.large': 'Max online grandi',
    'orari.apertura': 'Apertura',
    'orari.chiusura': 'Chiusura',
    ...pricingLabels('pricing'),
  },
  fields: {
    'lockerStructure.standard': 'standard',
    'lockerStructure.large': 'large',
    'maxOnline.standard': 'maxStandard',
    'maxOnline.large': 'maxLarge',
    'orari.apertura': 'apertura',
    'orari.chiusura': 'chiusura',
  },
};
