// The controller's XML answers, as schemas over the element tree an XML parser produces
// (element text kept as strings, attributes ignored). Every answer is one root element named
// `{operation}Response` holding `response` (0 = success) and `description`:
//
//   <getLockersStateResponse>
//     <response>0</response><description>OK</description>
//     <lockers><locker><number>1</number><state>1</state><size>standard</size></locker>…</lockers>
//   </getLockersStateResponse>
//
//   <historyResponse>
//     <response>0</response><description>OK</description><from>…Z</from><To>…Z</To>
//     <events><event><index>3</index><locker>2</locker><date>…Z</date><type>door_open</type>
//       <description>…</description></event>…</events>
//   </historyResponse>
//
//   <openResponse><response>0</response><description>OK</description></openResponse>  (also inhibit, unbook, book)
//
// The XML parsing itself lives with the programs that depend on an XML parser (edge-bridge, cloud);
// this module only decides whether the tree is a valid answer.
// zod/mini keeps the bridge daemon small (see ../zod-english-messages.ts).
import * as z from 'zod/mini';
import { useEnglishZodMessages } from '../zod-english-messages';
import { CONTROLLER_OPERATIONS, type ControllerOperation } from './operations';
import { lockerStateFromCode, type LockerState } from './locker-state';

/** Upper bound on an answer's size; the parser refuses anything larger before reading it. */
export const CONTROLLER_MAX_RESPONSE_BYTES = 1024 * 1024;
/** `response` value meaning success. */
export const CONTROLLER_SUCCESS = 0;

useEnglishZodMessages();

const text = z.string().check(z.maxLength(2000));
const int = z.pipe(z.string().check(z.trim(), z.regex(/^-?\d{1,9}$/, 'an integer')), z.transform(Number));
const lockerNumber = z.pipe(int, z.number().check(z.int(), z.gte(1), z.lte(99_999)));
const instant = z.pipe(
  z.pipe(z.string().check(z.trim()), z.iso.datetime({ offset: true })),
  z.transform((value: string) => new Date(value).toISOString()),
);

/** Repeated elements parse as one object when there is a single one, and as '' when empty. */
function list<T extends z.ZodMiniType>(tag: string, item: T) {
  return z.pipe(
    z.union([z.literal(''), z.strictObject({ [tag]: z.union([z.array(item), item]) })]),
    z.transform((value): z.output<T>[] => {
      if (value === '') return [];
      const items = (value as Record<string, unknown>)[tag];
      return (Array.isArray(items) ? items : [items]) as z.output<T>[];
    }),
  );
}

// `from`/`To` echo the asked period; some firmware sends them on every answer.
const envelope = {
  response: int,
  description: z._default(z.optional(text), ''),
  from: z.optional(instant),
  To: z.optional(instant),
};

const lockerFields = z.strictObject({
  number: lockerNumber,
  state: int,
  size: z.optional(z.enum(['standard', 'large'])),
});
const lockerEntry = z.pipe(
  lockerFields,
  z.transform((entry: z.output<typeof lockerFields>) => ({
    ...entry,
    code: entry.state,
    state: lockerStateFromCode(entry.state),
  })),
);

const historyEntry = z.strictObject({
  index: z.pipe(int, z.number().check(z.int(), z.nonnegative())),
  locker: lockerNumber,
  date: instant,
  type: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  description: z.optional(text),
});

const stateAnswer = z.strictObject({ ...envelope, lockers: z.optional(list('locker', lockerEntry)) }).check(
  z.refine((a) => a.response !== CONTROLLER_SUCCESS || a.lockers !== undefined, {
    message: 'a successful answer lists the lockers',
    path: ['lockers'],
  }),
);

const historyAnswer = z
  .strictObject({
    ...envelope,
    events: z.optional(list('event', historyEntry)),
  })
  .check(
    z.refine((a) => a.response !== CONTROLLER_SUCCESS || a.events !== undefined, {
      message: 'a successful answer lists the events',
      path: ['events'],
    }),
  );

const actionAnswer = z.strictObject(envelope);

export interface ControllerLocker {
  number: number;
  /** The controller's numeric state, kept for diagnosis. */
  code: number;
  state: LockerState;
  size?: 'standard' | 'large';
}

export interface ControllerHistoryEntry {
  index: number;
  locker: number;
  /** ISO 8601, UTC. */
  date: string;
  type: string;
  description?: string;
}

interface Envelope {
  /** 0 = success; anything else is the controller refusing, explained by `description`. */
  response: number;
  description: string;
}

export type ControllerAnswer =
  | (Envelope & { operation: 'getLockersState'; lockers: ControllerLocker[] })
  | (Envelope & { operation: 'history'; from?: string; to?: string; entries: ControllerHistoryEntry[] })
  | (Envelope & { operation: 'open' | 'inhibit' | 'unbook' | 'book' });

export type ControllerAnswerResult = { ok: true; answer: ControllerAnswer } | { ok: false; message: string };

export function controllerAnswerRoot(operation: ControllerOperation): string {
  return `${operation}Response`;
}

/** Validates a parsed XML tree as a controller answer. Never throws. */
export function readControllerAnswer(tree: unknown): ControllerAnswerResult {
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) {
    return { ok: false, message: 'not an XML document' };
  }
  const roots = Object.keys(tree);
  if (roots.length !== 1) return { ok: false, message: `expected one root element, found ${roots.length}` };
  const root = roots[0]!;
  const operation = CONTROLLER_OPERATIONS.find((op) => controllerAnswerRoot(op) === root);
  if (!operation) return { ok: false, message: `unexpected root element <${root.slice(0, 64)}>` };
  const body = (tree as Record<string, unknown>)[root];

  const fail = (error: z.core.$ZodError) => ({
    ok: false as const,
    message: `<${root}>: ${z.prettifyError(error)}`,
  });
  switch (operation) {
    case 'getLockersState': {
      const parsed = stateAnswer.safeParse(body);
      if (!parsed.success) return fail(parsed.error);
      const { response, description, lockers } = parsed.data;
      return { ok: true, answer: { operation, response, description, lockers: lockers ?? [] } };
    }
    case 'history': {
      const parsed = historyAnswer.safeParse(body);
      if (!parsed.success) return fail(parsed.error);
      const { response, description, from, To, events } = parsed.data;
      return {
        ok: true,
        answer: {
          operation,
          response,
          description,
          ...(from === undefined ? {} : { from }),
          ...(To === undefined ? {} : { to: To }),
          entries: events ?? [],
        },
      };
    }
    default: {
      const parsed = actionAnswer.safeParse(body);
      if (!parsed.success) return fail(parsed.error);
      const { response, description } = parsed.data;
      return { ok: true, answer: { operation, response, description } };
    }
  }
}
