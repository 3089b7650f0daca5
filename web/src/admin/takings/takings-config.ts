// Settings of the takings page that are not data: the company printed on every exported report.

/** The legal name in the PDF footers; a build can set VITE_COMPANY_LEGAL_NAME. */
export const COMPANY_LEGAL_NAME: string =
  (import.meta.env.VITE_COMPANY_LEGAL_NAME as string | undefined)?.trim() || 'Deposito S.r.l.';

/**
 * The zone of the page's current month for all locations together, and for a location whose zone an
 * older server does not send: Rome, the default (admin spec §9). One location's month is its own.
 */
export const TAKINGS_PAGE_ZONE = 'Europe/Rome';

/** Reading every kiosk can take a while (each has 10 s); the page waits longer than the kiosks. */
export const TAKINGS_LOAD_TIMEOUT_MS = 45_000;
