import { describe, expect, it, vi } from 'vitest';
import { startHostViewportListening, visibleArea } from './host-viewport';

describe('host viewport', () => {
  it('is the part of the frame the host window shows, clamped to the page', () => {
    expect(visibleArea(null, 3000)).toBeNull();
    expect(visibleArea({ type: 'host-viewport', top: 1200, height: 740 }, 3000)).toEqual({
      top: 1200,
      height: 740,
    });
    // Frame starts below the host window's top: its own top is what is seen first.
    expect(visibleArea({ type: 'host-viewport', top: -300, height: 740 }, 3000)).toEqual({
      top: 0,
      height: 440,
    });
    // Scrolled near the frame's end.
    expect(visibleArea({ type: 'host-viewport', top: 2800, height: 740 }, 3000)).toEqual({
      top: 2800,
      height: 200,
    });
  });

  it("asks its parent for the viewport and keeps only the parent's answers", () => {
    const parent = { postMessage: vi.fn() } as unknown as Window;
    const stop = startHostViewportListening(parent);
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'host-viewport-request' }, '*');
    stop();
  });

  it('does nothing when the page is not framed', () => {
    const spy = vi.spyOn(window, 'postMessage');
    startHostViewportListening(window)();
    expect(spy).not.toHaveBeenCalled();
  });
});
