// The page's service worker (offline.js registers it): it keeps every file
// of the site in a cache named after the build (a hash of the files,
// build-site.mjs), and answers the page's and its workers' requests from
// it, so the page reloads and starts its workers with no network.  A new
// build is a new cache; it takes over only when the page asks (offline.js)
// or no tab of the old one is left, and then the old cache goes.
const CACHE = __TP_CACHE__;
const FILES = __TP_FILES__;
const PREFIX = 'topos-playground-';

self.addEventListener('install', (event) => {
  // Fetched past the HTTP cache: the files must be this build's.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys())
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data?.skipWaiting) self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreSearch: true })
      || (request.mode === 'navigate' ? await cache.match('index.html') : undefined);
    return hit || fetch(request);
  })());
});
