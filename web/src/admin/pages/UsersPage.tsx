import {
  ADMIN_ROLES,
  authRoutes,
  locationRoutes,
  type AdminRole,
  type AdminUser,
  type LocationSummary,
} from '@deposito/protocol';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { useConfirm } from '../components/use-confirm';
import { StaleNotice, staleEditMessage } from '../components/StaleNotice';
import { Card, Empty, Field, Loading, Notice, PageHeader, type NoticeMessage } from '../components/ui';
import { formatInZone } from '../format';

const MIN_PASSWORD = 10;

const ROLE_LABELS: Record<AdminRole, string> = {
  administrator: 'Amministratore',
  site_operator: 'Operatore di sede',
  technician: 'Tecnico',
};

/**
 * Utenti: the accounts with their role and sites; add one (a site operator or technician with its
 * sites), reset a password, remove one but never the last administrator.
 */
export function UsersPage() {
  const confirm = useConfirm();
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<AdminRole>('administrator');
  const [sites, setSites] = useState<string[]>([]);
  const [locations, setLocations] = useState<LocationSummary[]>([]);
  // Another administrator's password needs the acting one's own (`currentPassword`), checked again.
  const [resetting, setResetting] = useState<{
    id: number;
    password: string;
    currentPassword: string;
  } | null>(null);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [stale, setStale] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers(await adminCall(authRoutes.listUsers, {}));
    } catch {
      setUsers((current) => current ?? []);
      setMessage({ tone: 'error', text: 'Errore nel caricamento degli utenti' });
    }
  }, []);

  useEffect(() => {
    void load();
    adminCall(locationRoutes.listLocations, { timeoutMs: 5_000 })
      .then(setLocations)
      .catch(() => setLocations([]));
  }, [load]);

  const fail = (text: string, error: unknown) => {
    const staleText = staleEditMessage(error);
    if (staleText) {
      setStale(staleText);
      return;
    }
    setMessage({
      tone: 'error',
      text: error instanceof Error && error.message ? `${text}: ${error.message}` : text,
    });
  };

  /** Someone must still manage the accounts: the server keeps the last administrator too. */
  const isLastAdministrator = (user: AdminUser) =>
    user.role === 'administrator' && (users ?? []).filter((u) => u.role === 'administrator').length <= 1;

  /** The version of the account as this page read it; a reset or removal sends it back. */
  const versionOf = (id: number) => users?.find((u) => u.id === id)?.version;

  async function create(event: FormEvent) {
    event.preventDefault();
    if (password.length < MIN_PASSWORD) {
      setMessage({ tone: 'error', text: `La password deve avere almeno ${MIN_PASSWORD} caratteri` });
      return;
    }
    if (role !== 'administrator' && sites.length === 0) {
      setMessage({ tone: 'error', text: 'Scegli almeno una sede per questo ruolo' });
      return;
    }
    try {
      const user = await adminCall(authRoutes.createUser, {
        body: { email: email.trim(), password, role, ...(role === 'administrator' ? {} : { sites }) },
      });
      setMessage({ tone: 'success', text: `${ROLE_LABELS[user.role]} ${user.email} aggiunto` });
      setEmail('');
      setPassword('');
      setRole('administrator');
      setSites([]);
      await load();
    } catch (error) {
      fail('Errore durante la creazione', error);
    }
  }

  async function reset() {
    if (!resetting) return;
    if (resetting.password.length < MIN_PASSWORD) {
      setMessage({ tone: 'error', text: `La password deve avere almeno ${MIN_PASSWORD} caratteri` });
      return;
    }
    try {
      await adminCall(authRoutes.changePassword, {
        params: { id: resetting.id },
        body: {
          password: resetting.password,
          version: versionOf(resetting.id),
          currentPassword: resetting.currentPassword || undefined,
        },
      });
      setMessage({
        tone: 'success',
        text: 'Password reimpostata: le sessioni di quell’utente sono terminate',
      });
      setResetting(null);
      await load();
    } catch (error) {
      fail('Errore salvataggio', error);
    }
  }

  async function remove(user: AdminUser) {
    const confirmed = await confirm.ask({
      title: "Rimuovere l'amministratore?",
      text: `${user.email} non potrà più entrare nell'area di amministrazione.`,
      confirmLabel: 'Rimuovi',
    });
    if (!confirmed) return;
    try {
      await adminCall(authRoutes.deleteUser, { params: { id: user.id }, query: { version: user.version } });
      setMessage({ tone: 'success', text: `Amministratore ${user.email} rimosso` });
      await load();
    } catch (error) {
      fail("Errore durante l'eliminazione", error);
    }
  }

  return (
    <>
      {confirm.dialog}
      <PageHeader
        title="Utenti"
        subtitle="Chi accede al pannello: amministratori (tutto), operatori di sede e tecnici (solo le loro sedi)"
      />
      <Notice message={message} onClose={() => setMessage(null)} />
      <StaleNotice
        message={stale}
        onReload={() => {
          setStale(null);
          setResetting(null);
          void load();
        }}
      />
      <div className="adm-split">
        <Card title={`Amministratori${users ? ` (${users.length})` : ''}`} className="adm-split-main">
          {users === null ? (
            <Loading />
          ) : users.length === 0 ? (
            <Empty>Nessun amministratore</Empty>
          ) : (
            <div className="adm-table-wrap" tabIndex={0} role="region" aria-label="Tabella utenti">
              <table className="adm-table">
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Ruolo</th>
                    <th>Creato</th>
                    <th>Ultimo accesso</th>
                    <th>
                      <span className="visually-hidden">Azioni</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {users.map((user) => (
                    <tr key={user.id}>
                      <td>
                        <strong>{user.email}</strong>
                        {resetting?.id === user.id ? (
                          <div className="adm-inline adm-reset">
                            <input
                              className="adm-input"
                              type="password"
                              autoComplete="new-password"
                              aria-label={`Nuova password per ${user.email}`}
                              placeholder="Nuova password"
                              value={resetting.password}
                              onChange={(e) => setResetting({ ...resetting, password: e.target.value })}
                            />
                            <input
                              className="adm-input"
                              type="password"
                              autoComplete="current-password"
                              aria-label="La tua password attuale"
                              placeholder="La tua password attuale"
                              value={resetting.currentPassword}
                              onChange={(e) =>
                                setResetting({ ...resetting, currentPassword: e.target.value })
                              }
                            />
                            <button
                              type="button"
                              className="adm-btn adm-btn-primary adm-btn-small"
                              onClick={() => void reset()}
                            >
                              Salva
                            </button>
                            <button
                              type="button"
                              className="adm-btn adm-btn-ghost adm-btn-small"
                              onClick={() => setResetting(null)}
                            >
                              Annulla
                            </button>
                          </div>
                        ) : null}
                      </td>
                      <td>
                        {ROLE_LABELS[user.role]}
                        {user.sites ? <span className="adm-muted"> · {user.sites.join(', ')}</span> : null}
                      </td>
                      <td className="adm-nowrap">{formatInZone(user.createdAt, 'Europe/Rome')}</td>
                      <td className="adm-nowrap">
                        {user.lastLoginAt ? formatInZone(user.lastLoginAt, 'Europe/Rome') : 'mai'}
                      </td>
                      <td className="adm-row-actions">
                        <button
                          type="button"
                          className="adm-link"
                          onClick={() => setResetting({ id: user.id, password: '', currentPassword: '' })}
                        >
                          Reimposta password
                        </button>
                        <button
                          type="button"
                          className="adm-link adm-link-danger"
                          disabled={isLastAdministrator(user)}
                          title={
                            isLastAdministrator(user)
                              ? "L'ultimo amministratore non può essere rimosso"
                              : undefined
                          }
                          onClick={() => void remove(user)}
                        >
                          Rimuovi
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        <Card title="Aggiungi utente" className="adm-split-side">
          <form onSubmit={create} className="adm-form">
            <Field label="Email">
              <input
                className="adm-input"
                type="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </Field>
            <Field label="Password" hint={`Almeno ${MIN_PASSWORD} caratteri`}>
              <input
                className="adm-input"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
            <Field label="Ruolo">
              <select
                className="adm-input"
                value={role}
                onChange={(e) => setRole(e.target.value as AdminRole)}
              >
                {ADMIN_ROLES.map((value) => (
                  <option key={value} value={value}>
                    {ROLE_LABELS[value]}
                  </option>
                ))}
              </select>
            </Field>
            {role === 'administrator' ? null : (
              <fieldset className="adm-fieldset">
                <legend className="adm-field-label">Sedi</legend>
                {locations.map((location) => (
                  <label key={location.key} className="adm-check">
                    <input
                      type="checkbox"
                      checked={sites.includes(location.key)}
                      onChange={(e) =>
                        setSites((current) =>
                          e.target.checked
                            ? [...current, location.key]
                            : current.filter((site) => site !== location.key),
                        )
                      }
                    />{' '}
                    {location.nome}
                  </label>
                ))}
              </fieldset>
            )}
            <button type="submit" className="adm-btn adm-btn-primary adm-btn-block">
              Aggiungi
            </button>
          </form>
        </Card>
      </div>
    </>
  );
}
