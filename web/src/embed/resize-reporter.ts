/** The message the host page's embed.js listens for to size the iframe. */
export interface ResizeIframeMessage {
  type: 'resize-iframe';
  height: number;
}

export function postDocumentHeight(target: Window = window.parent): void {
  if (target === window) return;
  const height = Math.ceil(document.documentElement.scrollHeight);
  const message: ResizeIframeMessage = { type: 'resize-iframe', height };
  // The height is not a secret; the host checks our origin on its side.
  target.postMessage(message, '*');
}

/** Reports the document height to the parent on every size change; returns the stop function. */
export function startResizeReporting(target: Window = window.parent): () => void {
  if (target === window) return () => undefined;
  postDocumentHeight(target);
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  const observer = new ResizeObserver(() => postDocumentHeight(target));
  observer.observe(document.documentElement);
  return () => observer.disconnect();
}

/** The night summary re-measures after its content settles: at once, after 400 ms and after 1000 ms. */
export function scheduleSettledResizes(target: Window = window.parent): () => void {
  postDocumentHeight(target);
  const timers = [400, 1000].map((ms) => window.setTimeout(() => postDocumentHeight(target), ms));
  return () => timers.forEach((timer) => window.clearTimeout(timer));
}
