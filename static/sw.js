/* 고스톱 점수판 service worker: the app opens and the live hand reloads with no connection.
   Served at /sw.js (scope: the whole site) with its configuration filled in by the server.
   - the app shell (CSS, JS, icons, manifest) is fetched at install into a cache named after
     its version, at the URLs the pages use (each with its content digest, served immutable);
     activating a new version deletes the old caches; the script's modules, imported at plain
     URLs, come from the network first and from that cache when it fails;
   - pages (home and live hand pages) are network first: a fresh copy is kept, the kept copy
     answers when the network does not (the page itself keeps it up to date as taps land);
   - everything else (the API, polls, posts) goes to the network untouched. */
"use strict";

const SK = /*SK_CONFIG*/{};
const SHELL = "sk-shell-" + SK.version;
const PAGES = "sk-pages";           // shared with static/js/keep.js, which refreshes the kept live hand page
const KEEP_PAGES = 24;              // the most recently visited pages kept
const NETWORK_WAIT_MS = 4000;       // a page from the network, or the kept copy after this long
const pages = new RegExp(SK.pages);

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll(SK.shell.map(function (url) { return new Request(url, { cache: "reload" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("sk-shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// A page that was on its way while the worker activated (the claim above came before it was a
// client of ours) asks to be claimed once it sees the worker active (keep.js): else it would stay
// uncontrolled, and not open offline, until the next navigation.
self.addEventListener("message", function (event) {
  if (event.data === "claim") { event.waitUntil(self.clients.claim()); }
});

// The offline page's words come from the message catalogue (SK.text, both languages):
// the phone's language picks them, as the app's pages do when no choice was made.
function offlinePage() {
  const lang = (self.navigator.language || "ko").toLowerCase().indexOf("ko") === 0 ? "ko" : "en";
  const t = SK.text[lang] || SK.text.ko;
  const esc = function (s) { return String(s).replace(/[&<>"]/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  const html = '<!doctype html><html lang="' + lang + '"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + esc(t.offline_title) + '</title>' +
    '<link rel="stylesheet" href="' + SK.css + '"></head><body>' +
    '<header class="top"><a class="brand" href="' + SK.home + '">' + esc(t.app_name) + '</a></header><main>' +
    '<h1>' + esc(t.offline_title) + '</h1><p>' + esc(t.offline_body) + '</p>' +
    '<p><a class="btn wide" href="' + SK.home + '">' + esc(t.home) + '</a></p></main></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES)).map(function (k) { return cache.delete(k); }));
  });
}

function page(event) {
  const request = event.request;
  const keep = pages.test(new URL(request.url).pathname);
  const network = fetch(request).then(function (response) {
    if (keep && response.ok && !response.redirected && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(caches.open(PAGES).then(function (cache) {
        return cache.delete(request.url).then(function () { return cache.put(request.url, copy); })
          .then(function () { return trim(cache); });
      }));
    }
    return response;
  });
  const kept = caches.open(PAGES).then(function (cache) { return cache.match(request.url); });
  const late = new Promise(function (resolve) { setTimeout(resolve, NETWORK_WAIT_MS); });
  // The network first; the kept copy when it fails, or when it is slow and a copy exists.
  return Promise.race([network, late.then(function () { return kept.then(function (hit) { return hit || network; }); })])
    .catch(function () { return kept.then(function (hit) { return hit || offlinePage(); }); });
}

// The script's modules (static/js/) are imported at plain URLs, without the digest that makes
// a shell URL name one version: the network first (the server revalidates them), so a page
// never mixes an old module with a new app.js; the shell's copy when the network fails.
function module(request) {
  return caches.open(SHELL).then(function (cache) {
    return fetch(request).then(function (response) {
      if (response.ok) { cache.put(request, response.clone()); }
      return response;
    }).catch(function () {
      return cache.match(request).then(function (hit) { return hit || Response.error(); });
    });
  });
}

function shell(request) {
  return caches.open(SHELL).then(function (cache) {
    return cache.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.indexOf(SK.modules) === 0 && !url.search) {
    event.respondWith(module(request));
  } else if (url.pathname.indexOf(SK.static) === 0 || SK.shell.indexOf(url.pathname) >= 0) {
    event.respondWith(shell(request));
  }
});
