import { NavLink, Outlet } from 'react-router-dom';
import { PageHeader } from '../components/ui';

/** /admin/settings: the "Impostazioni" page embedding the nested settings views. */
export function SettingsLayout() {
  return (
    <>
      <PageHeader title="Impostazioni" subtitle="Sedi, prezzi e parametri di sistema" />
      <nav className="adm-tabs" aria-label="Impostazioni">
        <NavLink to="/admin/settings/prices">Impostazioni Sedi</NavLink>
        <NavLink to="/admin/settings/block-windows">Parametri di sistema</NavLink>
        <NavLink to="/admin/locations">Sedi</NavLink>
        <NavLink to="/admin/discounts">Codici sconto</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
