/** A wizard page's busy and error state, which its steps' checks set. */
export interface PageStatus {
  busy: boolean;
  setBusy: (busy: boolean) => void;
  error: string | null;
  setError: (error: string | null) => void;
}

/**
 * A wizard step's server check with the page busy and the last error cleared; `failed` is what the
 * visitor reads if the check throws (a refusal the check expects it says itself, with `setError`).
 */
export async function busyCheck(
  { setBusy, setError }: Pick<PageStatus, 'setBusy' | 'setError'>,
  check: () => Promise<void>,
  failed: (failure: unknown) => string,
): Promise<void> {
  setBusy(true);
  setError(null);
  try {
    await check();
  } catch (failure) {
    setError(failed(failure));
  } finally {
    setBusy(false);
  }
}
