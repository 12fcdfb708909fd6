// agro web's service worker, served as /sw.js so that its scope is the whole site.
// - The app shell (stylesheet, scripts, icons, manifest, the offline page in each language)
//   is precached under a name that changes with the files, so a new version replaces it.
// - Pages go to the network first; each page answered is stored with the time it was saved,
//   and served from there when the network fails, with the page's "saved copy" banner shown
//   and dated. A page never seen offline gets the offline page.
// - Favorites: offline.js asks this worker to keep a favorite's card, the lists, the favorites
//   page and the product's JSON, and the comparison pages the card links to only when the person
//   asks (offered with their size); those are kept until unfavorited. Each copy records its
//   bytes as sent (X-Agro-Bytes); everything saved stays within BUDGET, the pages seen longest
//   ago dropped first, then the comparison pages kept longest ago; a favorite's own pages never.
// The server replaces __VERSION__ with a digest of the shell when it serves this file.
"use strict";
var VERSION = "__VERSION__";
var SHELL = "agro-shell-" + VERSION;
var PAGES = "agro-pages";
var KEPT = "agro-favorites";
var LANGUAGES = ["en", "ru", "kk"];
var SHELL_FILES = [
  "/static/app.css", "/static/app.js", "/static/offline.js", "/static/manifest.webmanifest",
  "/static/icon.svg", "/static/icon-192.png", "/static/icon-512.png", "/static/icon-maskable-512.png",
  "/static/journal.js"  // the field journal's offline records (journal.js keeps and sends them)
].concat(LANGUAGES.map(function (code) { return "/offline/" + code; }));
var PAGE_LIMIT = 150;     // pages kept as last seen (favorites' pages are apart, not counted)
var BUDGET = 5 * 1024 * 1024;  // bytes as sent of every page saved, favorites' included
var SAVED = "X-Agro-Saved";
var BYTES = "X-Agro-Bytes";
var EXTRA = "X-Agro-Extra";  // a comparison page kept because the person asked for it
var lastLanguage = null;  // of the last page answered, for the offline page

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    // "reload": the shell comes from the server, not from an older HTTP-cached copy.
    return cache.addAll(SHELL_FILES.map(function (url) { return new Request(url, { cache: "reload" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("agro-shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request, { cacheName: SHELL }).then(function (hit) { return hit || fetch(request); }));
  } else if (url.pathname.indexOf("/api/") === 0) {
    // The API is live; only a favorite's product JSON is kept, for the favorites page offline.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(request, { cacheName: KEPT }).then(function (hit) { return hit || Response.error(); });
    }));
  } else if (request.mode === "navigate" || (request.headers.get("Accept") || "").indexOf("text/html") >= 0) {
    event.respondWith(networkFirst(request));
  }
});

// offline.js: {keep: [urls], drop: [urls], extra: true when the person asked for more} when a
// product becomes a favorite or stops being one; the answer says the bytes kept.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var urls = function (list) {
    return (Array.isArray(list) ? list : []).filter(function (text) {
      return typeof text === "string" && text.charAt(0) === "/" && text.charAt(1) !== "/";
    });
  };
  var bytes = 0;
  var work = caches.open(KEPT).then(function (cache) {
    return Promise.all(urls(data.drop).map(function (url) { return cache.delete(url); })
      .concat(urls(data.keep).map(function (url) {
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (!response.ok) { return null; }
          return dated(response, data.extra === true).then(function (copy) {
            bytes += Number(copy.headers.get(BYTES)) || 0;
            return cache.put(url, copy);
          });
        });
      })));
  }).then(withinBudget).then(function () {
    if (event.source) { event.source.postMessage({ ticket: data.ticket, kept: urls(data.keep), dropped: urls(data.drop), bytes: bytes }); }
  }, function () {
    if (event.source) { event.source.postMessage({ ticket: data.ticket, failed: true }); }
  });
  event.waitUntil(work);
});

function networkFirst(request) {
  return fetch(request).then(function (response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.ok && response.type === "basic" && type.indexOf("text/html") === 0) {
      lastLanguage = response.headers.get("Content-Language") || lastLanguage;
      store(request, response.clone());
    }
    return response;
  }, function () {
    // A favorite's copy first: it is refreshed in the language last chosen (offline.js).
    return caches.match(request, { cacheName: KEPT, ignoreVary: true }).then(function (hit) {
      return hit || caches.match(request, { cacheName: PAGES, ignoreVary: true });
    }).then(function (hit) {
      return hit ? marked(hit) : offlinePage(request);
    });
  });
}

// The copy keeps the answer's headers plus the time it was saved and its bytes as sent (the
// compressed length the server declared, else the body's).
function dated(response, extra) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set(SAVED, new Date().toISOString());
    headers.set(BYTES, String(Number(response.headers.get("Content-Length")) || body.size));
    if (extra) { headers.set(EXTRA, "1"); }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function store(request, response) {
  return dated(response).then(function (copy) {
    var kept = copy.clone();
    return Promise.all([
      caches.open(PAGES).then(function (cache) {
        return cache.delete(request).then(function () { return cache.put(request, copy); }).then(function () { return trim(cache); });
      }),
      // A favorite's page seen online is refreshed in the favorites' cache too.
      caches.open(KEPT).then(function (cache) {
        return cache.match(request, { ignoreVary: true }).then(function (old) {
          if (!old) { return null; }
          if (old.headers.get(EXTRA)) { kept = dated(kept, true); }
          return Promise.resolve(kept).then(function (copy) { return cache.put(request, copy); });
        });
      })
    ]).then(withinBudget);
  }).catch(function () { /* storage full or denied: the page was still shown */ });
}

// Every saved page with its cache, bytes and date, the oldest first.
function entries(name) {
  return caches.open(name).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (key) {
        return cache.match(key).then(function (response) {
          var headers = response ? response.headers : new Headers();
          return { cache: cache, key: key, bytes: Number(headers.get(BYTES)) || 0, saved: headers.get(SAVED) || "",
                   extra: !!headers.get(EXTRA) };
        });
      }));
    });
  }).then(function (list) { return list.sort(function (a, b) { return a.saved < b.saved ? -1 : a.saved > b.saved ? 1 : 0; }); });
}

// Drops pages until everything saved fits BUDGET: the pages seen longest ago first, then the
// comparison pages kept longest ago; a favorite's card, lists and JSON stay.
function withinBudget() {
  return Promise.all([entries(PAGES), entries(KEPT)]).then(function (found) {
    var all = found[0].concat(found[1]);
    var total = all.reduce(function (sum, entry) { return sum + entry.bytes; }, 0);
    var droppable = found[0].concat(found[1].filter(function (entry) { return entry.extra; }));
    var drops = [];
    for (var i = 0; i < droppable.length && total > BUDGET; i++) {
      total -= droppable[i].bytes;
      drops.push(droppable[i].cache.delete(droppable[i].key));
    }
    return Promise.all(drops);
  });
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - PAGE_LIMIT)).map(function (key) { return cache.delete(key); }));
  });
}

// Shows the layout's "saved copy" banner (hidden when the page comes from the network) with
// the date the copy was saved, written as the page's language writes a date: the pattern the
// server put in the page (data-date, "{2}.{1}.{0}"), never the browser's locale data, which
// lacks some languages (Kazakh read "2026 M11 28"); the hour is the phone's.
function marked(response) {
  var saved = response.headers.get(SAVED) || "";
  return response.text().then(function (html) {
    var pattern = (/<body[^>]* data-date="([^"]*)"/.exec(html) || [])[1] || "{0}-{1}-{2}";
    var when = new Date(saved);
    var text = saved;
    if (!isNaN(when.getTime())) {
      var two = function (n) { return (n < 10 ? "0" : "") + n; };
      var parts = [String(when.getFullYear()), two(when.getMonth() + 1), two(when.getDate())];
      text = pattern.replace(/\{([012])\}/g, function (_, i) { return parts[Number(i)]; })
        + " " + two(when.getHours()) + ":" + two(when.getMinutes());
    }
    html = html.replace('<p class="saved" id="saved" role="status" hidden>', '<p class="saved" id="saved" role="status">')
      .replace('<time id="saved-at"></time>', '<time id="saved-at" datetime="' + escape(saved) + '">' + escape(text) + "</time>");
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return new Response(html, { status: 200, headers: headers });
  });
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
}

// The offline page in the language the user reads: the page's own lang=, the language switch's
// cookie, the last page answered, the browser's, English.
function offlinePage(request) {
  var asked = new URL(request.url).searchParams.get("lang");
  var cookie = self.cookieStore ? self.cookieStore.get("agro_lang").catch(function () { return null; }) : Promise.resolve(null);
  return cookie.then(function (found) {
    var choices = [asked, found && found.value, lastLanguage, (self.navigator.language || "").slice(0, 2)];
    var lang = choices.filter(function (code) { return code && LANGUAGES.indexOf(code) >= 0; })[0] || "en";
    return caches.match("/offline/" + lang, { cacheName: SHELL });
  }).then(function (page) {
    if (!page) { return new Response("offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }); }
    // Marked, so that a script asking for a page (search as you type) knows it got this one.
    var headers = new Headers(page.headers);
    headers.set("X-Agro-Offline", "1");
    return new Response(page.body, { status: 200, headers: headers });
  });
}
