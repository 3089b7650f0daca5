import type { InputHTMLAttributes } from 'react';
import { LOCATION_TIMEZONES } from '@deposito/protocol';
import type {
  FieldValues,
  Path,
  RegisterOptions,
  UseFormRegisterReturn,
  UseFormReturn,
} from 'react-hook-form';
import { invalidIf } from '../forms/admin-form';
import { Field } from './ui';
import { Options } from '../../components/Options';

/** A labelled text-like input bound to one field of a react-hook-form form. */
export function FormInput<Values extends FieldValues>({
  form,
  name,
  label,
  hint,
  options,
  ...input
}: {
  form: UseFormReturn<Values, unknown, unknown>;
  name: Path<Values>;
  label: string;
  hint?: string;
  options?: RegisterOptions<Values, Path<Values>>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name'>) {
  return (
    <Field label={label} hint={hint}>
      <input className="adm-input" {...input} {...form.register(name, options)} {...invalidIf(form, name)} />
    </Field>
  );
}

/** A lowercase identifier as it is typed (no spaces, no capitals), as the server's keys are. */
export function identifierOnChange<Handler extends (event: { target: HTMLInputElement }) => unknown>(
  onChange: Handler,
) {
  return (event: { target: HTMLInputElement }) => {
    event.target.value = event.target.value.trim().toLowerCase();
    return onChange(event);
  };
}

/** A location's time zone, chosen among those the booking pages know. */
export function TimezoneField({ registration }: { registration: UseFormRegisterReturn }) {
  return (
    <Field label="Fuso orario">
      <select className="adm-input" {...registration}>
        <Options items={LOCATION_TIMEZONES} />
      </select>
    </Field>
  );
}

/** One option a location, by its name; `withKey` adds its id, where sites are told apart by it. */
export function LocationOptions({
  locations,
  withKey = false,
}: {
  locations: readonly { key: string; nome: string }[];
  withKey?: boolean;
}) {
  return (
    <Options
      items={locations}
      value={(location) => location.key}
      label={(location) => (withKey ? `${location.nome} (${location.key})` : location.nome)}
    />
  );
}
