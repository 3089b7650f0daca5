/*
 * Deposito booking embed. On the host page:
 *   <script src="https://booking.example.com/embed.js" data-location="vicolo" data-lang="it"></script>
 * creates the booking iframe right after the script tag and keeps its height equal to the
 * booking page's content, so the host page never shows a second scroll bar.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;

  var origin = new URL(script.src, window.location.href).origin;
  var location = script.getAttribute('data-location') || '';
  var lang = script.getAttribute('data-lang') || '';
  var path = script.getAttribute('data-path') || '/' + encodeURIComponent(location);

  var src = new URL(path, origin);
  if (lang) src.searchParams.set('lng', lang);
  var startOptions = script.getAttribute('data-show-start-options');
  if (startOptions === '1') src.searchParams.set('showStartOptions', '1');

  var iframe = document.createElement('iframe');
  iframe.src = src.toString();
  iframe.title = script.getAttribute('data-title') || 'Deposito';
  iframe.setAttribute('allow', 'payment');
  iframe.setAttribute('loading', 'lazy');
  iframe.style.width = '100%';
  iframe.style.minHeight = '480px';
  iframe.style.border = '0';
  iframe.style.display = 'block';
  script.parentNode.insertBefore(iframe, script.nextSibling);

  // Which part of the frame this window shows (the frame's own coordinates), so the booking page
  // opens its dialogs there rather than in the middle of a frame taller than the screen.
  var viewportQueued = false;
  function sendViewport() {
    viewportQueued = false;
    if (!iframe.contentWindow) return;
    var rect = iframe.getBoundingClientRect();
    var message = { type: 'host-viewport', top: -rect.top, height: window.innerHeight };
    iframe.contentWindow.postMessage(message, origin);
  }
  function queueViewport() {
    if (viewportQueued) return;
    viewportQueued = true;
    window.requestAnimationFrame(sendViewport);
  }
  window.addEventListener('scroll', queueViewport, { passive: true });
  window.addEventListener('resize', queueViewport);

  window.addEventListener('message', function (event) {
    // Only our own booking page may resize the frame, and only its own frame.
    if (event.origin !== origin || event.source !== iframe.contentWindow) return;
    var data = event.data;
    if (!data) return;
    if (data.type === 'host-viewport-request') {
      sendViewport();
      return;
    }
    if (data.type !== 'resize-iframe') return;
    var height = Number(data.height);
    if (!isFinite(height) || height <= 0) return;
    // The page reports its content height, so the frame follows it down as well as up; the
    // minimum only holds the place until the page first reports.
    iframe.style.minHeight = '0';
    iframe.style.height = Math.ceil(height) + 'px';
    queueViewport();
  });
})();
