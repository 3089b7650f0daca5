import { locationRoutes } from '@deposito/protocol';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';

/**
 * A site's edge-bridge token (issue 17, Bridges): issuing one revokes the previous (its bridge is
 * disconnected at once) and shows the new one once, with the `edge-bridge init` command the
 * technician pastes on the site box. Only its hash is kept by the cloud.
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
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  async function issue() {
    if (
      !window.confirm(
        `Emettere un nuovo token per il bridge di ${locationKey}? Il token attuale smette subito di funzionare e il bridge collegato viene disconnesso.`,
      )
    )
      return;
    setBusy(true);
    setProblem(null);
    setCopied(false);
    try {
      const answer = await adminCall(locationRoutes.rotateBridgeToken, { params: { key: locationKey } });
      setToken(answer.token);
    } catch (error) {
      setProblem(`Token non emesso: ${errorText(error, 'errore sconosciuto')}`);
    } finally {
      setBusy(false);
    }
  }

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
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        disabled={busy}
        onClick={() => void issue()}
      >
        {busy ? '…' : 'Nuovo token bridge'}
      </button>
      {problem ? (
        <p className="adm-token-error" role="alert">
          {problem}
        </p>
      ) : null}
      {token ? (
        <div className="adm-token-once">
          <p role="status">
            <strong>Nuovo token emesso: è mostrato solo ora.</strong> Copia il comando ed eseguilo sul box
            della sede, poi <code>edge-bridge doctor</code> e <code>systemctl restart edge-bridge</code>.
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
      ) : null}
    </section>
  );
}
