import { afterEach, describe, expect, it, vi } from 'vitest';
import { postDocumentHeight, startResizeReporting } from './resize-reporter';

afterEach(() => vi.unstubAllGlobals());

describe('resize reporting', () => {
  it("posts the content's height to the parent, not the document's", () => {
    const parent = { postMessage: vi.fn() } as unknown as Window;
    // The document is never shorter than the frame; the body is as tall as the content.
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 2000 });
    Object.defineProperty(document.body, 'scrollHeight', { configurable: true, value: 812.4 });
    postDocumentHeight(parent);
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'resize-iframe', height: 813 }, '*');
  });

  it('observes the document and posts on every size change', () => {
    let notify: () => void = () => undefined;
    const observe = vi.fn();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          notify = callback;
        }
        observe = observe;
        disconnect = vi.fn();
      },
    );
    const parent = { postMessage: vi.fn() } as unknown as Window;
    const stop = startResizeReporting(parent);
    expect(observe).toHaveBeenCalledWith(document.body);
    expect(document.documentElement.hasAttribute('data-embedded')).toBe(true);
    notify();
    notify();
    expect(parent.postMessage).toHaveBeenCalledTimes(3);
    stop();
  });

  it('does nothing when the page is not framed', () => {
    const spy = vi.spyOn(window, 'postMessage');
    startResizeReporting(window)();
    expect(spy).not.toHaveBeenCalled();
  });
});
