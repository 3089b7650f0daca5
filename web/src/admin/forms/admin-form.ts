import { toNestErrors } from '@hookform/resolvers';
import type { FormEvent } from 'react';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ADMIN_ERROR_TEXT, issueText, type FieldLabels } from '../error-text';

// Every admin form is react-hook-form validated by one zod schema: the form's fields (text as typed)
// read into what the API takes and piped into the protocol's request schema, the same the server
// parses with. Each problem is an Italian text from error-text.ts, shown in the page's notice bar
// and kept on its field (aria-invalid); nothing is sent while one remains. Forms are noValidate: the
// browser's own bubbles (its language, its rules) would stop the submit before the schema speaks.

/**
 * How a form names what its schema checks: Italian labels by path (see `issueText`), and the form
 * field that holds a value the API calls otherwise (`discountPercent` is typed in `value`).
 */
export interface FormNames {
  labels?: FieldLabels;
  /** A form's own text for any problem of the value at a path ("Il PIN deve avere 6 cifre"). */
  texts?: FieldLabels;
  fields?: Readonly<Record<string, string>>;
}

/** A form schema: the form's values in (a partial patch schema takes them too), the API's body out. */
export type FormSchema<Values extends FieldValues, Body> =
  z.ZodType<Body, Values> | z.ZodType<Body, Partial<Values>>;

/**
 * react-hook-form's resolver for a form schema. Hand-written around zod rather than the stock
 * zodResolver because the texts come from the issue's code (`params.code`), which that resolver
 * drops, not from the schema's English message.
 */
export function adminResolver<Values extends FieldValues, Body>(
  schema: FormSchema<Values, Body>,
  names: FormNames = {},
): Resolver<Values, unknown, Body> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      const field = names.fields?.[path] ?? (path || 'root');
      errors[field] ??= { type: issue.code, message: issueText(issue, names) };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}

/**
 * The same check for values a page gathers itself (Impostazioni Sedi saves only the locations a
 * button's part changed): the API's body, or the Italian text of the first problem.
 */
export function checkFormValues<Values, Body>(
  schema: z.ZodType<Body, Values>,
  values: Values,
  names: FormNames = {},
): { ok: true; body: Body } | { ok: false; problem: string } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, body: result.data };
  return { ok: false, problem: issueText(result.error.issues[0]!, names) };
}

/** Whether a field holds a problem the schema found, as the input's aria-invalid. */
export function invalidIf<Values extends FieldValues>(
  form: UseFormReturn<Values, unknown, unknown>,
  name: string,
) {
  return get(form.formState.errors, name) ? { 'aria-invalid': true as const } : {};
}

/** `register` that also marks the input aria-invalid while the schema finds a problem in it. */
export function checkedRegister<Values extends FieldValues>(form: UseFormReturn<Values, unknown, unknown>) {
  return (name: Path<Values>, options?: RegisterOptions<Values, Path<Values>>) => ({
    ...form.register(name, options),
    ...invalidIf(form, name),
  });
}

/** A form whose values `schema` checks and reads into the API's body on submit. */
export function useAdminForm<Values extends FieldValues, Body>(
  schema: FormSchema<Values, Body>,
  defaultValues: DefaultValues<Values>,
  names?: FormNames,
): UseFormReturn<Values, unknown, Body> {
  return useForm<Values, unknown, Body>({
    resolver: adminResolver(schema, names),
    defaultValues,
  });
}

/** The first message in a form's errors, depth first in the order the schema found them. */
export function firstErrorText(errors: FieldErrors | FieldError | undefined): string | undefined {
  if (errors === undefined || errors === null || typeof errors !== 'object') return undefined;
  if (typeof errors.message === 'string' && errors.message !== '') return errors.message;
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref' || key === 'types') continue;
    const text = firstErrorText(value as FieldErrors);
    if (text !== undefined) return text;
  }
  return undefined;
}

/**
 * A form's submit handler (for onSubmit or a button's onClick): the schema checks what the form
 * holds; its first problem goes to `onProblem`, the API's body to `send` otherwise.
 */
export function formSubmit<Values extends FieldValues, Body>(
  form: UseFormReturn<Values, unknown, Body>,
  onProblem: (text: string) => void,
  send: (body: Body, values: Values) => Promise<void>,
): (event?: FormEvent) => void {
  return (event) => {
    void form.handleSubmit(
      (body) => send(body, form.getValues()),
      (errors) =>
        onProblem(firstErrorText(errors) ?? (ADMIN_ERROR_TEXT['validation/invalid_body'] as string)),
    )(event);
  };
}
