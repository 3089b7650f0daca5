/** The message the host page's embed.js listens for to size the iframe. */
export interface ResizeIframeMessage {
  type: 'resize-iframe';
  height: number;
}

/**
 * The height of the page's content. Not the document's scrollHeight: that is never less than the
 * frame's own height, so a frame sized by it could grow but never shrink back.
 */
export function contentHeight(): number {
  const body = document.body;
  const style = getComputedStyle(body);
  const margins = (parseFloat(style.marginTop) || 0) + (parseFloat(style.marginBottom) || 0);
  return Math.ceil(body.scrollHeight + margins);
}

export function postDocumentHeight(target: Window = window.parent): void {
  if (target === window) return;
  const height = contentHeight();
  const message: ResizeIframeMessage = { type: 'resize-iframe', height };
  // The height is not a secret; the host checks our origin on its side.
  target.postMessage(message, '*');
}

/** Reports the content height to the parent on every size change; returns the stop function. */
export function startResizeReporting(target: Window = window.parent): () => void {
  if (target === window) return () => undefined;
  // Styles that fill the screen (min-height in vh) would follow the frame instead of the content.
  document.documentElement.dataset.embedded = '';
  postDocumentHeight(target);
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  const observer = new ResizeObserver(() => postDocumentHeight(target));
  observer.observe(document.body);
  return () => observer.disconnect();
}

/** The night summary re-measures after its content settles: at once, after 400 ms and after 1000 ms. */
export function scheduleSettledResizes(target: Window = window.parent): () => void {
  postDocumentHeight(target);
  const timers = [400, 1000].map((ms) => window.setTimeout(() => postDocumentHeight(target), ms));
  return () => timers.forEach((timer) => window.clearTimeout(timer));
}
