import { useEffect } from 'react';

const INTERACTIONS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin'] as const;

/**
 * Calls `preload` once, at the visitor's first touch, click, key or pointer move: code a page needs
 * only after its first screen then loads while the visitor reads it, not while that screen loads.
 * `preload` should be a module-level function, so the listeners are added once.
 */
export function usePreloadOnInteraction(preload: () => void): void {
  useEffect(() => {
    const once = () => {
      for (const event of INTERACTIONS) window.removeEventListener(event, once);
      preload();
    };
    for (const event of INTERACTIONS) window.addEventListener(event, once, { passive: true });
    return () => {
      for (const event of INTERACTIONS) window.removeEventListener(event, once);
    };
  }, [preload]);
}
