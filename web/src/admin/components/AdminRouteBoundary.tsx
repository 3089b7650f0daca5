import type { ErrorInfo, ReactNode } from 'react';
import { FailedPageBoundary, reloadForMissingChunk } from '../../components/RouteErrorBoundary';

/**
 * Around each admin page (issue 17): a page that fails to render shows what happened and a way
 * out, in Italian, while the menu stays usable; the next page starts clean (`resetKey`: the path).
 * A chunk missing after a deploy reloads the page once, as on the visitors' pages.
 */
export class AdminRouteBoundary extends FailedPageBoundary<{
  children: ReactNode;
  resetKey: string;
  reload?: () => void;
}> {
  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // A missing chunk reloads once, as on the visitors' pages; otherwise the message below stays.
    if (reloadForMissingChunk(error, Date.now(), this.props.reload)) return;
    console.error('An admin page failed to render', error, info.componentStack);
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    // Another page was opened from the menu: it gets its own chance.
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="adm-card" role="alert">
        <h1>Questa pagina non si è aperta</h1>
        <p>
          Si è verificato un errore nel mostrarla. Gli altri strumenti del menu funzionano; ricarica la pagina
          per riprovare.
        </p>
        <button
          type="button"
          className="adm-btn adm-btn-primary"
          onClick={() => (this.props.reload ?? (() => window.location.reload()))()}
        >
          Ricarica
        </button>
      </section>
    );
  }
}
