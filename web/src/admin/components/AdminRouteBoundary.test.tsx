import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminRouteBoundary } from './AdminRouteBoundary';

function Broken(): never {
  throw new Error('boom');
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('an admin page that fails', () => {
  it('says so in Italian with a reload, and the next page opens normally', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    const { rerender } = render(
      <AdminRouteBoundary resetKey="/admin/bookings" reload={reload}>
        <Broken />
      </AdminRouteBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Questa pagina non si è aperta');
    fireEvent.click(screen.getByRole('button', { name: 'Ricarica' }));
    expect(reload).toHaveBeenCalledTimes(1);

    rerender(
      <AdminRouteBoundary resetKey="/admin/locations" reload={reload}>
        <p>Gestione Sedi</p>
      </AdminRouteBoundary>,
    );
    expect(screen.getByText('Gestione Sedi')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
