import { locationRoutes } from '@deposito/protocol';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ConfirmDialog } from '../components/ConfirmDialog';

/** The new token's init command, shown once, with a button that copies it. */
function IssuedTokenCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="adm-token-once">
      <p role="status">
        <strong>Nuovo token emesso: è mostrato solo ora.</strong> Copia il comando ed eseguilo sul box della
        sede, poi <code>edge-bridge doctor</code> e <code>systemctl restart edge-bridge</code>.
      </p>
      <label className="adm-field">
        <span className="adm-field-label">Comando edge-bridge init</span>
        <textarea className="adm-input adm-mono" readOnly rows={5} value={command} />
      </label>
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        onClick={() => {
          void navigator.clipboard?.writeText(command).then(() => setCopied(true));
        }}
      >
        {copied ? 'Copiato' : 'Copia comando'}
      </button>
    </div>
  );
}

/**
 * A site's edge-bridge token (issue 17, Bridges): issuing one revokes the previous (its bridge is
 * disconnected at once) and shows the new one once, with the `edge-bridge init` command the
 * technician pastes on the site box; revoking one (a lost or stolen box) leaves the site without a
 * token until a new one is issued. Only its hash is kept by the cloud.
 */
export function BridgeTokenPanel({
  locationKey,
  recipient,
  port,
  mastercode,
}: {
  locationKey: string;
  recipient: string;
  port: number;
  mastercode: string;
}) {
  const [token, setToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState<'issue' | 'revoke' | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  // Through the shared client like every admin save; a token is shown once, so nothing is cached.
  const change = useMutation({
    mutationFn: async (action: 'issue' | 'revoke') =>
      action === 'issue'
        ? { action, ...(await adminCall(locationRoutes.rotateBridgeToken, { params: { key: locationKey } })) }
        : {
            action,
            ...(await adminCall(locationRoutes.revokeBridgeToken, { params: { key: locationKey } })),
          },
    onMutate: () => {
      setProblem(null);
      setRevoked(null);
    },
    onSuccess: (answer) => {
      if ('token' in answer) return setToken(answer.token);
      setToken(null);
      setRevoked(
        answer.revoked
          ? 'Token revocato: il bridge della sede è disconnesso e non può collegarsi finché non emetti un nuovo token.'
          : 'La sede non aveva un token: nessun bridge può collegarsi finché non ne emetti uno.',
      );
    },
    onError: (error, action) => {
      const what = action === 'issue' ? 'Token non emesso' : 'Token non revocato';
      setProblem(`${what}: ${errorText(error, 'errore sconosciuto')}`);
    },
    onSettled: () => setAsking(null),
  });
  const busy = change.isPending;
  const run = (action: 'issue' | 'revoke') => change.mutate(action);

  const command = token
    ? [
        `BRIDGE_TOKEN=${token} edge-bridge init`,
        `  --cloud-url ${window.location.origin}`,
        `  --location ${locationKey}`,
        `  --recipient ${recipient} --port ${port}`,
        `  --key ${locationKey} --mastercode ${mastercode}`,
      ].join(' \\\n')
    : '';

  return (
    <section className="adm-bridge-token" aria-label="Token del bridge">
      <h3 className="adm-subtitle">Edge bridge</h3>
      <p className="adm-muted adm-small">
        Il bridge della sede si collega al cloud con un token. Emetterne uno nuovo revoca il precedente.
      </p>
      <div className="adm-actions-inline">
        <button
          type="button"
          className="adm-btn adm-btn-secondary"
          disabled={busy}
          onClick={() => setAsking('issue')}
        >
          Nuovo token bridge
        </button>
        <button
          type="button"
          className="adm-btn adm-btn-danger"
          disabled={busy}
          onClick={() => setAsking('revoke')}
        >
          Revoca token
        </button>
      </div>
      {asking === 'issue' ? (
        <ConfirmDialog
          title={`Nuovo token per il bridge di ${locationKey}`}
          confirmLabel="Emetti nuovo token"
          busy={busy}
          onConfirm={() => run('issue')}
          onCancel={() => setAsking(null)}
        >
          <p>Il token attuale smette subito di funzionare e il bridge collegato viene disconnesso.</p>
        </ConfirmDialog>
      ) : null}
      {asking === 'revoke' ? (
        <ConfirmDialog
          title={`Revocare il token del bridge di ${locationKey}?`}
          confirmLabel="Revoca token"
          tone="danger"
          busy={busy}
          onConfirm={() => run('revoke')}
          onCancel={() => setAsking(null)}
        >
          <p>
            Il bridge collegato viene disconnesso e nessun bridge potrà collegarsi finché non emetti un nuovo
            token (per esempio se il box della sede è stato perso o rubato).
          </p>
        </ConfirmDialog>
      ) : null}
      {problem ? (
        <p className="adm-token-error" role="alert">
          {problem}
        </p>
      ) : null}
      {revoked ? <p role="status">{revoked}</p> : null}
      {token ? <IssuedTokenCommand key={token} command={command} /> : null}
    </section>
  );
}
