import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { ADMIN_SIGNED_IN_KEY } from './admin-session';
import AdminApp from './AdminApp';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

function renderAdmin(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/*" element={<AdminApp />} />
    </Routes>,
    { path },
  );
}

describe('admin routes', () => {
  it('answers an unknown /admin address with "Pagina non trovata" and a link back, without redirecting', async () => {
    window.localStorage.setItem(ADMIN_SIGNED_IN_KEY, '1');
    await renderAdmin('/admin/does-not-exist');

    expect(await screen.findByRole('heading', { name: 'Pagina non trovata' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Torna alla Dashboard' }).getAttribute('href')).toBe(
      '/admin/dashboard',
    );
    expect(screen.getByTestId('path').textContent).toBe('/admin/does-not-exist');
    // Inside the admin layout: the menu stays there to go elsewhere.
    expect(screen.getByRole('navigation', { name: 'Menu amministrazione' })).toBeDefined();
  });

  it('shows Utenti as a collapsible menu group like the others', async () => {
    window.localStorage.setItem(ADMIN_SIGNED_IN_KEY, '1');
    await renderAdmin('/admin/dashboard');
    const group = screen.getByRole('button', { name: 'Utenti' });
    expect(group.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Tutti gli utenti' }).getAttribute('href')).toBe(
      '/admin/users/all',
    );
    expect(screen.getByRole('link', { name: 'Ruoli' }).getAttribute('href')).toBe('/admin/users/roles');
  });

  it('gives the login page a main landmark', async () => {
    await renderAdmin('/admin/login');
    expect(screen.getByRole('main')).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Login Admin' })).toBeDefined();
  });
});
