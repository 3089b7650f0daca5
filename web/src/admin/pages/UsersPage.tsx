import {
  ADMIN_PASSWORD_MIN_LENGTH,
  ADMIN_ROLES,
  authRoutes,
  type AdminRole,
  type AdminUser,
  type LocationSummary,
} from '@deposito/protocol';
import { useState } from 'react';
import { adminCall } from '../admin-api';
import { PageNoticeBar, listOf, useEditingPage, type PageNotices } from '../components/page-notices';
import { Card, Field, HiddenHeader, Listed, PageHeader, TableRegion } from '../components/ui';
import { formatInZone } from '../format';
import { checkedRegister, formSubmit, useAdminForm } from '../forms/admin-form';
import {
  NEW_USER_FORM,
  NEW_USER_NAMES,
  PASSWORD_NAMES,
  newUserFormSchema,
  passwordFormSchema,
} from '../forms/user-form';
import { adminQueries } from '../query/queries';
import { useAdminMutation, useRouteMutation } from '../query/use-admin-mutation';
import { useConfirmedMutation } from '../query/use-confirmed-mutation';
import { Options } from '../../components/Options';
import { useQuery } from '@tanstack/react-query';

const ROLE_LABELS: Record<AdminRole, string> = {
  administrator: 'Amministratore',
  site_operator: 'Operatore di sede',
  technician: 'Tecnico',
};

const USER_KEYS = [adminQueries.users().queryKey];

/** A refused save's text: the stale warning, or `text` with the server's reason. */
function refusal(notices: PageNotices, text: string, error: unknown) {
  notices.refused(error, error instanceof Error && error.message ? `${text}: ${error.message}` : text);
}

/** Aggiungi utente: a site operator or technician needs at least one site. */
function NewUserCard({ notices }: { notices: PageNotices }) {
  const locations = useQuery(adminQueries.locationSummaries()).data ?? [];
  const form = useAdminForm(newUserFormSchema, NEW_USER_FORM, NEW_USER_NAMES);
  const register = checkedRegister(form);
  const role = form.watch('role');
  const create = useRouteMutation(authRoutes.createUser, USER_KEYS);

  const submit = formSubmit(form, notices.error, async (body) => {
    try {
      const user = await create.mutateAsync(body);
      notices.success(`${ROLE_LABELS[user.role]} ${user.email} aggiunto`);
      form.reset(NEW_USER_FORM);
    } catch (error) {
      refusal(notices, 'Errore durante la creazione', error);
    }
  });

  return (
    <Card title="Aggiungi utente" className="adm-split-side">
      <form noValidate onSubmit={submit} className="adm-form">
        <Field label="Email">
          <input className="adm-input" type="email" required {...register('email')} />
        </Field>
        <Field label="Password" hint={`Almeno ${ADMIN_PASSWORD_MIN_LENGTH} caratteri`}>
          <input
            className="adm-input"
            type="password"
            autoComplete="new-password"
            {...register('password')}
          />
        </Field>
        <Field label="Ruolo">
          <select className="adm-input" {...register('role')}>
            <Options items={ADMIN_ROLES} label={(role) => ROLE_LABELS[role]} />
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
  const form = useAdminForm(passwordFormSchema, { password: '', currentPassword: '' }, PASSWORD_NAMES);
  const change = useAdminMutation(
    (body: { password: string; currentPassword?: string }) =>
      adminCall(authRoutes.changePassword, {
        params: { id: user.id },
        body: { ...body, version: user.version },
      }),
    USER_KEYS,
  );
  const save = formSubmit(form, notices.error, async (body) => {
    try {
      await change.mutateAsync(body);
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
        {...checkedRegister(form)('password')}
      />
      <input
        className="adm-input"
        type="password"
        autoComplete="current-password"
        aria-label="La tua password attuale"
        placeholder="La tua password attuale"
        {...checkedRegister(form)('currentPassword')}
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
  const { notices, query, failed } = useEditingPage(
    adminQueries.users(),
    'Errore nel caricamento degli utenti',
  );
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
      <PageNoticeBar
        notices={notices}
        failed={failed}
        onReload={() => {
          setResetting(null);
          void query.refetch();
        }}
      />
      <div className="adm-split">
        <Card title={`Amministratori${users ? ` (${users.length})` : ''}`} className="adm-split-main">
          <Listed items={users} empty="Nessun amministratore">
            {(users) => (
              <TableRegion
                label="Tabella utenti"
                head={
                  <>
                    <th>Email</th>
                    <th>Ruolo</th>
                    <th>Creato</th>
                    <th>Ultimo accesso</th>
                    <HiddenHeader>Azioni</HiddenHeader>
                  </>
                }
              >
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
              </TableRegion>
            )}
          </Listed>
        </Card>
        <NewUserCard notices={notices} />
      </div>
    </>
  );
}
