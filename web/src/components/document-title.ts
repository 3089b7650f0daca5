import { useEffect } from 'react';

/** The site's name after every page's own title, as browsers, tabs and screen readers show it. */
export const SITE_NAME = 'Deposito';

/**
 * Names the browser tab and the page for screen readers after what the visitor is looking at
 * ("Scegli il giorno · Deposito"), instead of the same "Deposito" on every page. The step or page
 * shown last sets it.
 */
export function useDocumentTitle(title: string | null | undefined, site = SITE_NAME): void {
  useEffect(() => {
    if (title) document.title = `${title} · ${site}`;
  }, [title, site]);
}
