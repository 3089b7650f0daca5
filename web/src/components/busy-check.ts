/**
 * A wizard step's server check with the page busy and the last error cleared; `failed` is what the
 * visitor reads if the check throws (a refusal the check expects it says itself, with `setError`).
 */
export async function busyCheck(
  { setBusy, setError }: { setBusy: (busy: boolean) => void; setError: (error: string | null) => void },
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
