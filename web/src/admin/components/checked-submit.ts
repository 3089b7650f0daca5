import type { FormEvent } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

/**
 * A form's submit: the page's own checks run at once on what the form holds, so their Italian message
 * replaces the last one before anything else happens (as the operator clicked); then `send` gets the
 * values. Returns the handler for onSubmit or a button's onClick.
 */
export function checkedSubmit<Values extends FieldValues>(
  form: UseFormReturn<Values>,
  check: (values: Values) => string | null,
  onProblem: (text: string) => void,
  send: (values: Values) => Promise<void>,
): (event?: FormEvent) => void {
  return (event) => {
    event?.preventDefault();
    const values = form.getValues();
    const problem = check(values);
    if (problem) onProblem(problem);
    else void send(values);
  };
}
