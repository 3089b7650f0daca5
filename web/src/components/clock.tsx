import { createContext, useContext, type ReactNode } from 'react';

/** The current instant; injected so tests can put the pages at a chosen time in the location's zone. */
export type Clock = () => Date;

const ClockContext = createContext<Clock>(() => new Date());

export function ClockProvider({ clock, children }: { clock: Clock; children: ReactNode }) {
  return <ClockContext.Provider value={clock}>{children}</ClockContext.Provider>;
}

export function useClock(): Clock {
  return useContext(ClockContext);
}
