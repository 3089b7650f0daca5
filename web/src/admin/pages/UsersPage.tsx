import {
  ADMIN_ROLES,
  authRoutes,
  type AdminRole,
  type AdminUser,
  type LocationSummary,
} from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { adminCall } from '../admin-api';
import {
  PageNoticeBar,
  listOf,
  loadFailure,
  usePageNotices,
  type PageNotices,
} from '../components/page-notices';
import { checkedSubmit } from '../components/checked-submit';
import { Card, Empty, Field, Loading, Notice, PageHeader } from '../components/ui';
import { formatInZone } from '../format';
import { adminQueries } from '../query/queries';
import { useAdminMutation } from '../query/use-admin-mutation';
import { useConfirmedMutation } from '../query/use-confirmed-mutation';

const MIN_PASSWORD = 10;

const ROLE_LABELS: Record<AdminRole, string> = {
  administrator: 'Amministratore',
  site_operator: 'Operatore di sede',
  technician: 'Tecnico',
};

const USER_KEYS = [adminQueries.users().queryKey];

const tooShort = `La password deve avere almeno ${MIN_PASSWORD} caratteri`;

/** A refused save's text: the stale warning, or `text` with the server's reason. */
function refusal(notices: PageNotices, text: string, error: unknown) {
  notices.refused(error, error instanceof Error && error.message ? `${text}: ${error.message}` : text);
}

interface NewUserForm {
  email: string;
  password: string;
  role: AdminRole;
  sites: string[];
}

const NEW_USER: NewUserForm = { email: '', password: '', role: 'administrator', sites: [] };

function newUserProblem({ password, role, sites }: NewUserForm): string | null {
  if (password.length < MIN_PASSWORD) return tooShort;
  if (role !== 'administrator' && sites.length === 0) return 'Scegli almeno una sede per questo ruolo';
  return null;
}

/** Aggiungi utente: a site operator or technician needs at least one site. */
function NewUserCard({ notices }: { notices: PageNotices }) {
  const locations = useQuery(adminQueries.locationSummaries()).data ?? [];
  const form = useForm<NewUserForm>({ defaultValues: NEW_USER });
  const { register } = form;
  const role = form.watch('role');
  const create = useAdminMutation(
    (body: Parameters<typeof adminCall<typeof authRoutes.createUser>>[1]['body']) =>
      adminCall(authRoutes.createUser, { body }),
    USER_KEYS,
  );

  const submit = checkedSubmit(
    form,
    newUserProblem,
    notices.error,
    async ({ email, password, role, sites }) => {
      try {
        const user = await create.mutateAsync({
          email: email.trim(),
          password,
          role,
          ...(role === 'administrator' ? {} : { sites }),
        });
        notices.success(`${ROLE_LABELS[user.role]} ${user.email} aggiunto`);
        form.reset(NEW_USER);
      } catch (error) {
        refusal(notices, 'Errore durante la creazione', error);
      }
    },
  );

  return (
    <Card title="Aggiungi utente" className="adm-split-side">
      <form onSubmit={submit} className="adm-form">
        <Field label="Email">
          <input className="adm-input" type="email" required {...register('email')} />
        </Field>
        <Field label="Password" hint={`Almeno ${MIN_PASSWORD} caratteri`}>
          <input
            className="adm-input"
            type="password"
            autoComplete="new-password"
            {...register('password')}
          />
        </Field>
        <Field label="Ruolo">
          <select className="adm-input" {...register('role')}>
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
            {locations.map((location: LocationSummary) => (
              <label key={location.key} className="adm-check">
                <input type="checkbox" value={location.key} {...register('sites')} /> {location.nome}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" className="adm-btn adm-btn-primary adm-btn-block">
          Aggiungi
        </button>
      </form>
    </Card>
  );
}

/**
 * A new password for one account. Another administrator's password needs the acting one's own
 * (`currentPassword`), checked again; the save sends back the account's version as read.
 */
function PasswordReset({
  user,
  notices,
  onClose,
}: {
  user: AdminUser;
  notices: PageNotices;
  onClose: () => void;
}) {
  const form = useForm({ defaultValues: { password: '', currentPassword: '' } });
  const change = useAdminMutation(
    (body: { password: string; currentPassword?: string }) =>
      adminCall(authRoutes.changePassword, {
        params: { id: user.id },
        body: { ...body, version: user.version },
      }),
    USER_KEYS,
  );
  const check = ({ password }: { password: string }) => (password.length < MIN_PASSWORD ? tooShort : null);
  const save = checkedSubmit(form, check, notices.error, async ({ password, currentPassword }) => {
    try {
      await change.mutateAsync({ password, currentPassword: currentPassword || undefined });
      notices.success('Password reimpostata: le sessioni di quell’utente sono terminate');
      onClose();
    } catch (error) {
      refusal(notices, 'Errore salvataggio', error);
    }
  });
  return (
    <div className="adm-inline adm-reset">
      <input
        className="adm-input"
        type="password"
        autoComplete="new-password"
        aria-label={`Nuova password per ${user.email}`}
        placeholder="Nuova password"
        {...form.register('password')}
      />
      <input
        className="adm-input"
        type="password"
        autoComplete="current-password"
        aria-label="La tua password attuale"
        placeholder="La tua password attuale"
        {...form.register('currentPassword')}
      />
      <button type="button" className="adm-btn adm-btn-primary adm-btn-small" onClick={() => save()}>
        Salva
      </button>
      <button type="button" className="adm-btn adm-btn-ghost adm-btn-small" onClick={onClose}>
        Annulla
      </button>
    </div>
  );
}

function UserRow({
  user,
  isLastAdministrator,
  resetting,
  notices,
  onReset,
  onRemove,
}: {
  user: AdminUser;
  isLastAdministrator: boolean;
  resetting: boolean;
  notices: PageNotices;
  onReset: (open: boolean) => void;
  onRemove: () => void;
}) {
  return (
    <tr>
      <td>
        <strong>{user.email}</strong>
        {resetting ? <PasswordReset user={user} notices={notices} onClose={() => onReset(false)} /> : null}
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
        <button type="button" className="adm-link" onClick={() => onReset(true)}>
          Reimposta password
        </button>
        <button
          type="button"
          className="adm-link adm-link-danger"
          disabled={isLastAdministrator}
          title={isLastAdministrator ? "L'ultimo amministratore non può essere rimosso" : undefined}
          onClick={onRemove}
        >
          Rimuovi
        </button>
      </td>
    </tr>
  );
}

/**
 * Utenti: the accounts with their role and sites; add one (a site operator or technician with its
 * sites), reset a password, remove one but never the last administrator.
 */
export function UsersPage() {
  const notices = usePageNotices();
  const query = useQuery(adminQueries.users());
  const users = listOf(query);
  const [resetting, setResetting] = useState<number | null>(null);
  const remove = useConfirmedMutation(
    (user: AdminUser) =>
      adminCall(authRoutes.deleteUser, { params: { id: user.id }, query: { version: user.version } }),
    USER_KEYS,
    {
      ask: (user) => ({
        title: "Rimuovere l'amministratore?",
        text: `${user.email} non potrà più entrare nell'area di amministrazione.`,
        confirmLabel: 'Rimuovi',
      }),
      onDone: (user) => notices.success(`Amministratore ${user.email} rimosso`),
      onFailed: (error) => refusal(notices, "Errore durante l'eliminazione", error),
    },
  );

  /** Someone must still manage the accounts: the server keeps the last administrator too. */
  const isLastAdministrator = (user: AdminUser) =>
    user.role === 'administrator' && (users ?? []).filter((u) => u.role === 'administrator').length <= 1;

  return (
    <>
      {remove.dialog}
      <PageHeader
        title="Utenti"
        subtitle="Chi accede al pannello: amministratori (tutto), operatori di sede e tecnici (solo le loro sedi)"
      />
      <Notice message={loadFailure(query, 'Errore nel caricamento degli utenti')} />
      <PageNoticeBar
        notices={notices}
        onReload={() => {
          setResetting(null);
          void query.refetch();
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
                    <UserRow
                      key={user.id}
                      user={user}
                      isLastAdministrator={isLastAdministrator(user)}
                      resetting={resetting === user.id}
                      notices={notices}
                      onReset={(open) => setResetting(open ? user.id : null)}
                      onRemove={() => remove.run(user)}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        <NewUserCard notices={notices} />
      </div>
    </>
  );
}
