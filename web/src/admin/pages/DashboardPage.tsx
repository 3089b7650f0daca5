import { authRoutes } from '@deposito/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { adminCall } from '../admin-api';
import { clearAdminSignedIn } from '../admin-session';
import { Card, PageHeader } from '../components/ui';
import { AlertsPanel } from './AlertsPanel';
import { useAdminRole } from '../admin-role';
import { roleReaches } from '../components/AdminLayout';

const SHORTCUTS = [
  {
    to: '/admin/locker-status',
    title: 'Gestione Locker',
    text: 'Monitora e comanda i locker di ogni sede in tempo reale.',
  },
  {
    to: '/admin/bookings',
    title: 'Prenotazioni',
    text: 'Prenotazioni recenti, filtri per stato e sede, pulizia database.',
  },
  {
    to: '/admin/locations',
    title: 'Sedi',
    text: 'Gestisci le sedi, i collegamenti ai controller e la struttura locker.',
  },
  {
    to: '/admin/settings/prices',
    title: 'Prezzi e orari',
    text: 'Prezzi, fuso orario, orari di apertura e numero di locker.',
  },
  {
    to: '/admin/settings/block-windows',
    title: 'Parametri tecnici',
    text: 'Finestre di blocco, manutenzione, Fast Track, scadenza.',
  },
  { to: '/admin/discounts', title: 'Codici sconto', text: 'Crea, modifica ed elimina i codici sconto.' },
];

export function DashboardPage() {
  const navigate = useNavigate();
  const role = useAdminRole();
  const queryClient = useQueryClient();

  async function logout() {
    // The token ends on the server too; leaving works even if that call fails.
    await adminCall(authRoutes.logout, {}).catch(() => undefined);
    clearAdminSignedIn();
    // What this session read is not for the next one.
    queryClient.clear();
    navigate('/admin/login', { replace: true });
  }

  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="Benvenuto nel pannello di amministrazione di Deposito."
        actions={
          <button type="button" className="adm-btn adm-btn-secondary" onClick={() => void logout()}>
            Logout
          </button>
        }
      />
      <AlertsPanel />
      <Card>
        <p className="adm-lead">
          Da qui puoi gestire le sedi, i parametri tecnici, i prezzi e i codici sconto, e monitorare i locker
          in tempo reale.
        </p>
      </Card>
      <div className="adm-tiles">
        {SHORTCUTS.filter((item) => roleReaches(role, item.to)).map((item) => (
          <Link key={item.to} to={item.to} className="adm-tile">
            <strong>{item.title}</strong>
            <span>{item.text}</span>
          </Link>
        ))}
      </div>
    </>
  );
}
