// The page offline: once it has shown its first readings, the service
// worker (sw.js, written by build-site.mjs with a cache named after a hash
// of the site's files) keeps every file of the site, so the page reloads
// and starts workers with no network, and the training's worker is
// started and kept.  A newer build's service worker waits until the
// reader asks for it (its files and this page's must not mix).
import { page, say, undoButton } from './page-state.js';

const state = { started: false };

function watchForUpdate(registration) {
  const offer = (worker) => {
    if (!worker || !navigator.serviceWorker.controller) return;   // the first install: nothing to update
    say('a newer version of the page is ready. ', undoButton('reload to use it', () => {
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
      worker.postMessage({ skipWaiting: true });
    }));
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const next = registration.installing;
    next?.addEventListener('statechange', () => { if (next.state === 'installed') offer(next); });
  });
}

// The first readings are on the page: the rest of the start-up's work,
// out of its way.
export function afterFirstReadings() {
  if (state.started) return;
  state.started = true;
  setTimeout(() => {
    page.teach.warmTraining();
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register('sw.js').then(watchForUpdate, () => {
      // No service worker (the site is served without sw.js, or storage is
      // off): the page works, and needs the network for a reload.
    });
  }, 0);
}
