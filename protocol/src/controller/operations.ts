// The locker controller's HTTP interface: form-encoded POST to http://{recipient}:{port}/{operation}
// carrying `key` and `mastercode` plus the operation's fields; the answer is XML (see responses.ts).
// zod/mini keeps the bridge daemon small (see ../zod-english-messages.ts).
import * as z from 'zod/mini';
import { useEnglishZodMessages } from '../zod-english-messages';

useEnglishZodMessages();

export const CONTROLLER_DEFAULT_PORT = 11000;
/** The real controller has been seen to take tens of seconds; beyond this the outcome is unknown. */
export const CONTROLLER_TIMEOUT_MS = 30_000;

export const CONTROLLER_OPERATIONS = [
  'getLockersState',
  'history',
  'open',
  'inhibit',
  'unbook',
  'book',
] as const;
export const controllerOperationSchema = z.enum(CONTROLLER_OPERATIONS);
export type ControllerOperation = z.infer<typeof controllerOperationSchema>;

/** Operations that change a locker; the others only read. */
export const CONTROLLER_ACTIONS = [
  'open',
  'inhibit',
  'unbook',
  'book',
] as const satisfies readonly ControllerOperation[];

export interface ControllerCredentials {
  key: string;
  mastercode: string;
}

const lockerNumber = z.number().check(z.int(), z.gte(1), z.lte(99_999));
/** Instants travel as ISO 8601 in UTC, e.g. 2025-03-30T01:30:00.000Z. */
const instant = z.iso.datetime();

export const controllerRequestSchema = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('getLockersState') }),
  z.object({
    operation: z.literal('history'),
    /** First history index wanted (the controller numbers its events); 0 for all. */
    index: z._default(z.number().check(z.int(), z.nonnegative()), 0),
    startDate: instant,
    endDate: instant,
    /** Omitted: every locker. */
    locker: z.optional(lockerNumber),
  }),
  z.object({ operation: z.literal('open'), locker: lockerNumber }),
  z.object({ operation: z.literal('inhibit'), locker: lockerNumber }),
  z.object({ operation: z.literal('unbook'), locker: lockerNumber }),
  z.object({
    operation: z.literal('book'),
    locker: lockerNumber,
    pin: z.string().check(z.regex(/^\d{4,8}$/)),
    from: instant,
    to: instant,
  }),
]);
export type ControllerRequest = z.input<typeof controllerRequestSchema>;

export function controllerUrl(recipient: string, port: number, operation: ControllerOperation): string {
  const host = recipient.includes(':') && !recipient.startsWith('[') ? `[${recipient}]` : recipient;
  return `http://${host}:${port}/${operation}`;
}

/** The form fields of a request, credentials included, in the controller's own field names. */
export function controllerRequestFields(
  credentials: ControllerCredentials,
  request: ControllerRequest,
): Record<string, string> {
  const fields: Record<string, string> = { key: credentials.key, mastercode: credentials.mastercode };
  switch (request.operation) {
    case 'getLockersState':
      break;
    case 'history':
      fields.index = String(request.index ?? 0);
      fields.startDate = request.startDate;
      fields.endDate = request.endDate;
      if (request.locker !== undefined) fields.locker = String(request.locker);
      break;
    case 'open':
    case 'inhibit':
    case 'unbook':
      fields.locker = String(request.locker);
      break;
    case 'book':
      fields.locker = String(request.locker);
      fields.PIN = request.pin;
      fields.from = request.from;
      fields.to = request.to;
      break;
  }
  return fields;
}

const formInt = z.pipe(z.string().check(z.regex(/^\d{1,9}$/)), z.transform(Number));

/**
 * Reads the form fields of a received request (the simulator's side). Credentials are returned apart so
 * the receiver can check them; every other field is validated for the operation.
 */
export function parseControllerRequestFields(
  operation: ControllerOperation,
  fields: Record<string, string>,
):
  | { ok: true; credentials: ControllerCredentials; request: z.output<typeof controllerRequestSchema> }
  | { ok: false; message: string } {
  const shape = z.object({
    key: z.string(),
    mastercode: z.string(),
    locker: z.optional(formInt),
    index: z.optional(formInt),
    PIN: z.optional(z.string()),
    from: z.optional(z.string()),
    to: z.optional(z.string()),
    startDate: z.optional(z.string()),
    endDate: z.optional(z.string()),
  });
  const form = shape.safeParse(fields);
  if (!form.success) return { ok: false, message: z.prettifyError(form.error) };
  const { key, mastercode, PIN, ...rest } = form.data;
  const request = controllerRequestSchema.safeParse({ operation, ...rest, pin: PIN });
  if (!request.success) return { ok: false, message: z.prettifyError(request.error) };
  return { ok: true, credentials: { key, mastercode }, request: request.data };
}
