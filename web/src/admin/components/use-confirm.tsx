import { useCallback, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

export interface ConfirmRequest {
  title: string;
  /** What will happen, in a sentence or two. */
  text: string;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
}

/**
 * The admin pages' one way to ask before an action that cannot be taken back: `ask` opens our
 * dialog (never the browser's confirm(), which looks foreign, cannot be styled and blocks the tab)
 * and resolves true when the operator confirms. Render `dialog` where the page's content is.
 */
export function useConfirm(): { dialog: ReactNode; ask: (request: ConfirmRequest) => Promise<boolean> } {
  const [pending, setPending] = useState<(ConfirmRequest & { answer: (ok: boolean) => void }) | null>(null);
  const ask = useCallback(
    (request: ConfirmRequest) => new Promise<boolean>((answer) => setPending({ ...request, answer })),
    [],
  );
  const close = (ok: boolean) => {
    pending?.answer(ok);
    setPending(null);
  };
  const dialog = pending ? (
    <ConfirmDialog
      title={pending.title}
      confirmLabel={pending.confirmLabel}
      tone={pending.tone ?? 'danger'}
      onConfirm={() => close(true)}
      onCancel={() => close(false)}
    >
      <p>{pending.text}</p>
    </ConfirmDialog>
  ) : null;
  return { dialog, ask };
}
