import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfirmDialog } from './ConfirmDialog';

// The admin's confirmations are the browser's own modal <dialog> (issue 17): named by its title,
// open while mounted, Escape and "Annulla" leave it to the caller, and nothing closes while busy.

afterEach(cleanup);

describe('ConfirmDialog', () => {
  it('is an open native dialog named by its title, confirming with its button', () => {
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog title="Aprire il locker 3?" confirmLabel="Apri" onConfirm={onConfirm} onCancel={vi.fn()}>
        <p>Lo sportello si apre subito.</p>
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Aprire il locker 3?' });
    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Apri' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('leaves Escape, a close request and "Annulla" to the caller, and ignores them while busy', () => {
    const onCancel = vi.fn();
    const { rerender } = render(
      <ConfirmDialog title="Disattivare?" confirmLabel="Disattiva" onConfirm={vi.fn()} onCancel={onCancel} />,
    );
    const dialog = screen.getByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    expect(onCancel).toHaveBeenCalledTimes(3);

    rerender(
      <ConfirmDialog
        title="Disattivare?"
        confirmLabel="Disattiva"
        busy
        onConfirm={vi.fn()}
        onCancel={onCancel}
      />,
    );
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(3);
    expect((screen.getByRole('dialog') as HTMLDialogElement).open).toBe(true);
  });
});
