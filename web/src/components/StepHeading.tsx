import { useEffect, useRef, type ReactNode } from 'react';
import { useDocumentTitle } from './document-title';

/**
 * A step's title; it takes focus when the step opens so screen readers and keyboards follow along,
 * and names the browser tab.
 */
export function StepHeading({
  children,
  focus = true,
  id,
}: {
  children: ReactNode;
  focus?: boolean;
  id?: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(typeof children === 'string' ? children : null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h2 ref={ref} id={id} tabIndex={-1}>
      {children}
    </h2>
  );
}
