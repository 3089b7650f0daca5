import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import type { AdminRole } from '@deposito/protocol';
import { useAdminRole } from '../admin-role';
import { AdminRouteBoundary } from './AdminRouteBoundary';

interface MenuLink {
  label: string;
  to: string;
  end?: boolean;
}
interface MenuGroup {
  label: string;
  children: MenuLink[];
}
type MenuEntry = MenuLink | MenuGroup;

/** The side menu of admin spec §2; groups are collapsible. */
export const ADMIN_MENU: MenuEntry[] = [
  { label: 'Dashboard', to: '/admin/dashboard' },
  { label: 'Gestione Locker', to: '/admin/locker-status' },
  {
    label: 'Prenotazioni',
    children: [
      { label: 'Recenti', to: '/admin/bookings' },
      { label: 'Crea nuova', to: '/admin/advanced' },
    ],
  },
  {
    label: 'Utenti',
    children: [
      { label: 'Tutti gli utenti', to: '/admin/users/all' },
      { label: 'Ruoli', to: '/admin/users/roles' },
    ],
  },
  {
    label: 'Impostazioni',
    children: [
      { label: 'Sedi', to: '/admin/locations' },
      { label: 'Impostazioni Sedi', to: '/admin/settings/prices' },
      { label: 'Parametri di sistema', to: '/admin/settings/block-windows' },
      { label: 'Codici sconto', to: '/admin/discounts' },
    ],
  },
  { label: 'Incassi', to: '/admin/incassi' },
  {
    label: 'Log',
    children: [
      { label: 'Errori', to: '/admin/logs', end: true },
      { label: 'Archivio', to: '/admin/logs/archive' },
      { label: 'Processo', to: '/admin/logs/pm2' },
    ],
  },
];

const isGroup = (entry: MenuEntry): entry is MenuGroup => 'children' in entry;

function groupIsActive(group: MenuGroup, path: string): boolean {
  return group.children.some((child) => path === child.to || path.startsWith(`${child.to}/`));
}

/** Menu links a role does not reach (the server refuses their calls anyway: cloud/src/auth/roles.ts). */
const HIDDEN_FOR: Record<Exclude<AdminRole, 'administrator'>, ReadonlySet<string>> = {
  site_operator: new Set([
    '/admin/users/all',
    '/admin/users/roles',
    '/admin/settings/block-windows',
    '/admin/discounts',
    '/admin/logs/pm2',
  ]),
  technician: new Set(
    ADMIN_MENU.flatMap((entry) => (isGroup(entry) ? entry.children : [entry]))
      .map((link) => link.to)
      .filter((to) => to !== '/admin/locker-status'),
  ),
};

/** Whether the role's menu has a link to `to` (the dashboard's shortcuts follow the menu). */
export function roleReaches(role: AdminRole, to: string): boolean {
  return role === 'administrator' || !HIDDEN_FOR[role].has(to);
}

/** The menu as the role sees it: hidden links left out, and groups left empty with them. */
export function menuFor(role: AdminRole): MenuEntry[] {
  if (role === 'administrator') return ADMIN_MENU;
  const hidden = HIDDEN_FOR[role];
  return ADMIN_MENU.flatMap<MenuEntry>((entry) => {
    if (!isGroup(entry)) return hidden.has(entry.to) ? [] : [entry];
    const children = entry.children.filter((child) => !hidden.has(child.to));
    return children.length > 0 ? [{ ...entry, children }] : [];
  });
}

export function AdminLayout() {
  const location = useLocation();
  const menu = menuFor(useAdminRole());
  const [open, setOpen] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(ADMIN_MENU.filter(isGroup).map((g) => [g.label, groupIsActive(g, location.pathname)])),
  );
  const [menuShown, setMenuShown] = useState(false);

  // Navigating opens the group of the page shown and closes the menu drawer on small screens.
  useEffect(() => {
    setMenuShown(false);
    setOpen((current) => {
      const next = { ...current };
      for (const group of ADMIN_MENU.filter(isGroup)) {
        if (groupIsActive(group, location.pathname)) next[group.label] = true;
      }
      return next;
    });
  }, [location.pathname]);

  return (
    <div className="adm-shell">
      <header className="adm-topbar">
        <button
          type="button"
          className="adm-menu-toggle"
          aria-label="Menu"
          aria-expanded={menuShown}
          onClick={() => setMenuShown((shown) => !shown)}
        >
          ☰
        </button>
        <span className="adm-brand">Admin Panel</span>
        <span className="adm-topbar-sub">Deposito</span>
      </header>
      <div className="adm-body">
        <nav
          className={`adm-sidebar${menuShown ? ' adm-sidebar-shown' : ''}`}
          aria-label="Menu amministrazione"
        >
          <ul>
            {menu.map((entry) =>
              isGroup(entry) ? (
                <li key={entry.label}>
                  <button
                    type="button"
                    className="adm-menu-group"
                    aria-expanded={Boolean(open[entry.label])}
                    onClick={() =>
                      setOpen((current) => ({ ...current, [entry.label]: !current[entry.label] }))
                    }
                  >
                    <span>{entry.label}</span>
                    <span className="adm-chevron" aria-hidden="true">
                      {open[entry.label] ? '▾' : '▸'}
                    </span>
                  </button>
                  {open[entry.label] ? (
                    <ul className="adm-submenu">
                      {entry.children.map((child) => (
                        <li key={child.to}>
                          <NavLink to={child.to} end={child.end ?? true}>
                            {child.label}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ) : (
                <li key={entry.to}>
                  <NavLink to={entry.to} end={entry.end ?? false}>
                    {entry.label}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
        </nav>
        {menuShown ? (
          <div className="adm-scrim" onClick={() => setMenuShown(false)} aria-hidden="true" />
        ) : null}
        <main className="adm-main">
          <AdminRouteBoundary resetKey={location.pathname}>
            <Outlet />
          </AdminRouteBoundary>
        </main>
      </div>
    </div>
  );
}
