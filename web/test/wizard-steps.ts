import { expect } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';

// Steps both wizards' tests take alike (the daytime flow's and the night wizard's), in Italian.

/** The values of a select's options, the placeholder's '' first. */
export function optionValues(select: HTMLElement): (string | null)[] {
  return within(select)
    .getAllByRole('option')
    .map((option) => option.getAttribute('value'));
}

/** On the start-time step: checks the first and the last start offered, then picks `time` and goes on. */
export function chooseStartBetween(select: HTMLElement, first: string, last: string, time: string): void {
  const slots = optionValues(select);
  expect(slots[1]).toBe(first);
  expect(slots.at(-1)).toBe(last);
  fireEvent.change(select, { target: { value: time } });
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
}

/** On the start-time step: picks `time`, then `duration` (e.g. 'hours:3'), going on after each. */
export async function chooseStartAndDuration(time: string, duration: string): Promise<void> {
  fireEvent.change(await screen.findByLabelText('Orario di inizio'), { target: { value: time } });
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
  fireEvent.change(await screen.findByLabelText('Durata'), { target: { value: duration } });
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
}
