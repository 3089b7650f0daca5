import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useHostViewport, visibleArea } from '../embed/host-viewport';

/**
 * A modal dialog: focus moves into it on open, Escape closes it, focus returns on close. Inside a
 * host page's iframe it opens in the part of the frame the host's window shows.
 */
export function Dialog({
  title,
  children,
  actions,
  onClose,
}: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
  onClose: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const area = visibleArea(useHostViewport());

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialogRef.current?.querySelector<HTMLElement>('button, [href], input, select')?.focus();
    return () => previous?.focus?.();
  }, []);

  return (
    <div className="dialog-backdrop">
      <div
        className="dialog-area"
        style={area ? { top: area.top, height: area.height, bottom: 'auto' } : undefined}
      >
        <div
          ref={dialogRef}
          className="dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={bodyId}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onClose();
            if (event.key === 'Tab') keepFocusInside(event, dialogRef.current);
          }}
        >
          <h2 id={titleId}>{title}</h2>
          <div id={bodyId}>{children}</div>
          <div className="actions">{actions}</div>
        </div>
      </div>
    </div>
  );
}

function keepFocusInside(event: React.KeyboardEvent, container: HTMLElement | null): void {
  if (!container) return;
  const focusable = [
    ...container.querySelectorAll<HTMLElement>('button:not(:disabled), [href], input, select'),
  ];
  if (focusable.length === 0) return;
  const first = focusable[0]!;
  const last = focusable[focusable.length - 1]!;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
