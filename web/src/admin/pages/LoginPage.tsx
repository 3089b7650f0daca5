import { authRoutes } from '@deposito/protocol';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { adminCall, isApiErrorWithCode } from '../admin-api';
import { markAdminSignedIn } from '../admin-session';
import { useDocumentTitle } from '../../components/document-title';

export function LoginPage() {
  useDocumentTitle('Login', 'Admin Deposito');
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The server sets the session cookie; the token in the answer is for API clients.
      await adminCall(authRoutes.login, { body: { email, password } });
      markAdminSignedIn();
      navigate('/admin/dashboard', { replace: true });
    } catch (failure) {
      setError(
        isApiErrorWithCode(failure, 'auth/too_many_attempts')
          ? 'Troppi tentativi di accesso: riprova tra qualche minuto'
          : 'Credenziali non valide',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="adm-login">
      <form className="adm-login-card" onSubmit={submit}>
        <div className="adm-login-brand">Deposito</div>
        <h1>Login Admin</h1>
        <label className="adm-field">
          <span className="adm-field-label">Email</span>
          <input
            className="adm-input"
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label className="adm-field">
          <span className="adm-field-label">Password</span>
          <input
            className="adm-input"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
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
