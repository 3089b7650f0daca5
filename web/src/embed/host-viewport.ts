import { useSyncExternalStore } from 'react';

// Inside a host page's iframe the frame is as tall as the page (embed.js follows our height), so
// the window is the whole page and "the middle of the screen" is somewhere the visitor may not be
// looking. embed.js tells us which part of the frame the host's window shows: on load, on every
// scroll and resize of the host, and when asked. Dialogs centre themselves in that part.

/** Sent by embed.js: the host window's top edge in the frame's coordinates, and its height. */
export interface HostViewportMessage {
  type: 'host-viewport';
  top: number;
  height: number;
}

/** Sent to the host page to ask for a {@link HostViewportMessage} now. */
export interface HostViewportRequest {
  type: 'host-viewport-request';
}

/** The part of this page the visitor sees, in page coordinates. */
export interface VisibleArea {
  top: number;
  height: number;
}

let latest: HostViewportMessage | null = null;
const listeners = new Set<() => void>();

function readMessage(data: unknown): HostViewportMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, top, height } = data as Record<string, unknown>;
  if (type !== 'host-viewport' || typeof top !== 'number' || typeof height !== 'number') return null;
  if (!Number.isFinite(top) || !Number.isFinite(height) || height <= 0) return null;
  return { type, top, height };
}

/** Listens to the host page's viewport messages; returns the stop function. */
export function startHostViewportListening(parent: Window = window.parent): () => void {
  if (parent === window) return () => undefined;
  const onMessage = (event: MessageEvent) => {
    // Any host may embed us; only our own parent's word counts, and it only places a dialog.
    if (event.source !== parent) return;
    const message = readMessage(event.data);
    if (!message) return;
    latest = message;
    listeners.forEach((listener) => listener());
  };
  window.addEventListener('message', onMessage);
  const request: HostViewportRequest = { type: 'host-viewport-request' };
  parent.postMessage(request, '*');
  return () => window.removeEventListener('message', onMessage);
}

/**
 * The part of the page the visitor sees: inside a host page that reported it, the frame's part in
 * the host's window (clamped to the page); otherwise null (the window itself is what is seen).
 */
export function visibleArea(
  host: HostViewportMessage | null,
  pageHeight = document.documentElement.clientHeight,
): VisibleArea | null {
  if (!host) return null;
  const top = Math.min(Math.max(0, host.top), Math.max(0, pageHeight - 1));
  const bottom = Math.max(top + 1, Math.min(pageHeight, host.top + host.height));
  return { top, height: bottom - top };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The latest host viewport report, re-rendering on each new one; null when not embedded. */
export function useHostViewport(): HostViewportMessage | null {
  return useSyncExternalStore(
    subscribe,
    () => latest,
    () => null,
  );
}
