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

  window.addEventListener('message', function (event) {
    // Only our own booking page may resize the frame, and only its own frame.
    if (event.origin !== origin || event.source !== iframe.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== 'resize-iframe') return;
    var height = Number(data.height);
    if (!isFinite(height) || height <= 0) return;
    iframe.style.height = Math.ceil(height) + 'px';
  });
})();
