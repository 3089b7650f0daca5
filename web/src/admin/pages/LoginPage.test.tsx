import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { LoginPage } from './LoginPage';

describe('Login Admin', () => {
  it('asks for what is missing in Italian, by the field, before calling the server', async () => {
    const api = fakeApi({});
    await renderWithProviders(<LoginPage />, { path: '/admin/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Accedi' }));
    expect((await screen.findByRole('alert')).textContent).toBe("Scrivi l'email del tuo account");
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/admin/login')).toHaveLength(0);
  });
});
