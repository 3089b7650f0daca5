import { fireEvent, screen } from '@testing-library/react';

/** Types each value into the field its label names, then presses the button named `submit`. */
export function fillAndSubmit(values: Record<string, string>, submit: string): void {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
  fireEvent.click(screen.getByRole('button', { name: submit }));
}
