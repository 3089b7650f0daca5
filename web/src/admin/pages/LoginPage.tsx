import { authRoutes, loginRequestSchema } from '@deposito/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { adminCall, isApiErrorWithCode } from '../admin-api';
import { markAdminSignedIn } from '../admin-session';
import { useDocumentTitle } from '../../components/document-title';
import { checkedRegister, formSubmit, useAdminForm, type FormNames } from '../forms/admin-form';

/** What the login asks for, in the page's words (no rule on the password is revealed). */
const LOGIN_NAMES: FormNames = {
  texts: { email: "Scrivi l'email del tuo account", password: 'Scrivi la password' },
};

export function LoginPage() {
  useDocumentTitle('Login', 'Admin Deposito');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useAdminForm(loginRequestSchema, { email: '', password: '' }, LOGIN_NAMES);
  const login = useMutation({
    // The server sets the session cookie; the token in the answer is for API clients.
    mutationFn: (body: { email: string; password: string }) => adminCall(authRoutes.login, { body }),
    onSuccess: () => {
      // Nothing read for an earlier session is shown to this one.
      queryClient.clear();
      markAdminSignedIn();
      navigate('/admin/dashboard', { replace: true });
    },
  });
  const error =
    problem ??
    (login.isError
      ? isApiErrorWithCode(login.error, 'auth/too_many_attempts')
        ? 'Troppi tentativi di accesso: riprova tra qualche minuto'
        : 'Credenziali non valide'
      : null);
  const submit = formSubmit(form, setProblem, async (body) => {
    setProblem(null);
    login.mutate(body);
  });
  const register = checkedRegister(form);
  const busy = login.isPending;

  return (
    <main className="adm-login">
      <form className="adm-login-card" noValidate onSubmit={submit}>
        <div className="adm-login-brand">Deposito</div>
        <h1>Login Admin</h1>
        <label className="adm-field">
          <span className="adm-field-label">Email</span>
          <input className="adm-input" type="email" autoComplete="username" {...register('email')} />
        </label>
        <label className="adm-field">
          <span className="adm-field-label">Password</span>
          <input
            className="adm-input"
            type="password"
            autoComplete="current-password"
            {...register('password')}
          />
        </label>
        {error ? (
          <div className="adm-notice adm-notice-error" role="alert">
            {error}
          </div>
        ) : null}
        <button type="submit" className="adm-btn adm-btn-primary adm-btn-block" disabled={busy}>
          {busy ? 'Accesso…' : 'Accedi'}
        </button>
        {/* The spec's link leads nowhere: passwords are reset by another administrator (Utenti). */}
        <a
          href="#"
          className="adm-link adm-login-forgot"
          onClick={(event) => event.preventDefault()}
          title="Chiedi a un altro amministratore di reimpostarla da Utenti"
        >
          Password dimenticata?
        </a>
        <p className="adm-login-footer">Deposito Admin · versione beta</p>
      </form>
    </main>
  );
}
