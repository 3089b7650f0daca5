import { useEffect, useRef, type ReactNode } from 'react';

/** A step's title; it takes focus when the step opens so screen readers and keyboards follow along. */
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
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h2 ref={ref} id={id} tabIndex={-1}>
      {children}
    </h2>
  );
}
