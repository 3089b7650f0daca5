import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './StatusScreens';

/** When the page last reloaded itself for a missing chunk (session storage, epoch ms). */
export const CHUNK_RELOAD_KEY = 'deposito:chunk-reload-at';
/** A second failure this soon after a reload is not a deploy in between: it is shown, not retried. */
const RELOAD_WINDOW_MS = 30_000;

/** A script chunk that could not be loaded: after a deploy the old hashed files are gone. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

function reloadedRecently(now: number): boolean {
  try {
    const at = Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY));
    return Number.isFinite(at) && at > 0 && now - at < RELOAD_WINDOW_MS;
  } catch {
    return true; // No session storage (a locked-down iframe): never risk a reload loop.
  }
}

/** An error boundary that remembers that its page failed to render; each kind says what it shows. */
export abstract class FailedPageBoundary<Props> extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
}

/**
 * After a deploy, a missing chunk reloads the page once (the new index.html names the new chunks):
 * true when it reloaded. The same failure again within RELOAD_WINDOW_MS is not retried, nor is any
 * failure when session storage cannot record the reload (never risk a reload loop).
 */
export function reloadForMissingChunk(
  error: unknown,
  now: number,
  reload = () => window.location.reload(),
): boolean {
  if (!isChunkLoadError(error) || reloadedRecently(now)) return false;
  try {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  reload();
  return true;
}

/**
 * Around each page: a failed chunk after a deploy reloads the page once (the new index.html names
 * the new chunks); any other error, or the same failure again, shows the translated error screen,
 * never a blank iframe.
 */
export class RouteErrorBoundary extends FailedPageBoundary<{
  children: ReactNode;
  reload?: () => void;
  now?: () => number;
}> {
  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (reloadForMissingChunk(error, (this.props.now ?? Date.now)(), this.props.reload)) return;
    console.error('A page failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorScreen onReload={this.props.reload} /> : this.props.children;
  }
}
