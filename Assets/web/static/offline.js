// agro web offline: registers the service worker (/sw.js) and
// - when a product becomes a favorite, asks it to keep what the field needs: the card, the
//   lists (products, regions, news), the favorites page and the product's JSON, and says what
//   that cost; the comparison pages the card links to are offered with their size and kept
//   only when asked for; all of it is let go when the product stops being a favorite;
// - keeps the favorites in the language last chosen (they are fetched again after a switch);
// - on the favorites page, says how much is saved on this phone;
// - replaces a saved copy on screen by the live page once the network is back;
// - searches the saved pages when search as you type finds no network (app.js asks).
// Pages work without this file.
"use strict";
(function () {
  if (!("serviceWorker" in navigator)) { return; }
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* http on another host: no offline */ });

  var keptKey = "agro.kept";  // product id -> {lang, core: [urls], extra: [urls]}
  var LISTS = ["/products", "/regions", "/news", "/favorites"];
  var BUDGET = 5 * 1024 * 1024;  // as sw.js's BUDGET
  var lang = document.body.getAttribute("data-lang") || "en";
  function read(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key) || "null") || fallback; } catch (e) { return fallback; }
  }
  function write(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage off */ }
  }
  function keptList() {
    var kept = read(keptKey, {});
    Object.keys(kept).forEach(function (id) {  // an older version kept a list of URLs
      if (Array.isArray(kept[id])) { kept[id] = { lang: null, core: kept[id], extra: [] }; }
    });
    return kept;
  }
  var tickets = 0, waiting = {};
  navigator.serviceWorker.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.ticket && waiting[data.ticket]) {
      waiting[data.ticket](data);
      delete waiting[data.ticket];
    }
  });
  // A message to the worker; `then` gets its answer ({bytes} kept, or {failed}).
  function send(message, then) {
    message.ticket = ++tickets;
    if (then) { waiting[message.ticket] = then; }
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) { registration.active.postMessage(message); }
    });
  }
  function apiURL(id) { return "/api/v1/product/" + encodeURIComponent(id) + "?lang=" + encodeURIComponent(lang); }
  function core(id) { return ["/product/" + encodeURIComponent(id), apiURL(id)].concat(LISTS); }
  function others(kept, id, part) {
    return Object.keys(kept).filter(function (key) { return key !== id; })
      .reduce(function (all, key) { return all.concat(kept[key][part] || []); }, []);
  }
  // "412 KB" or "1.5 MB" as the page's language writes it (its words in data-kb, data-mb).
  function size(bytes, element) {
    var kb = element.getAttribute("data-kb") || "{0} KB", mb = element.getAttribute("data-mb") || "{0} MB";
    if (bytes >= 1024 * 1024) {
      return mb.replace("{0}", (bytes / 1048576).toLocaleString(lang === "en" ? "en" : "ru", { maximumFractionDigits: 1 }));
    }
    return kb.replace("{0}", String(Math.max(1, Math.round(bytes / 1024))));
  }
  // The saved copies: [{url, bytes, response}] of both caches.
  function saved() {
    return Promise.all(["agro-favorites", "agro-pages"].map(function (name) {
      return caches.open(name).then(function (cache) {
        return cache.keys().then(function (keys) {
          return Promise.all(keys.map(function (key) {
            return cache.match(key).then(function (response) {
              var url = new URL(key.url);
              return { url: url.pathname + url.search, cache: name, response: response,
                       bytes: response ? Number(response.headers.get("X-Agro-Bytes")) || 0 : 0 };
            });
          }));
        });
      });
    })).then(function (found) { return found[0].concat(found[1]); }, function () { return []; });
  }

  // Back online after a language switch: the favorites are fetched again in the new language.
  (function () {
    var kept = keptList(), stale = Object.keys(kept).filter(function (id) { return kept[id].lang && kept[id].lang !== lang; });
    if (stale.length === 0 || !navigator.onLine) { return; }
    stale.forEach(function (id) {
      var fresh = core(id);
      send({ keep: fresh, drop: kept[id].core.filter(function (url) { return fresh.indexOf(url) < 0; }) });
      if (kept[id].extra.length > 0) { send({ keep: kept[id].extra, extra: true }); }
      kept[id].core = fresh;
      kept[id].lang = lang;
    });
    write(keptKey, kept);
  })();

  // A saved copy on screen (the worker showed its banner): the live page once the network is back.
  // A journal field's page does this itself (journal.js): it sends the records kept first and
  // says when a new session is needed, rather than leave for the sign-in page.
  var banner = document.getElementById("saved");
  if (banner && !banner.hidden && !document.getElementById("pending")) {
    var probing = false, typed = false;
    // Never over what the person is typing in a form (a journal record written offline); a
    // search typed meanwhile is asked of the live page.
    document.addEventListener("input", function (event) { typed = typed || event.target.id !== "q"; });
    var probe = function () {
      if (probing || typed) { return; }
      probing = true;
      fetch("/healthz", { cache: "no-store" }).then(function (response) {
        if (!response.ok) { return; }
        var box = document.getElementById("q"), live = new URL(location.href);
        if (box && box.value.trim()) {
          live.searchParams.set("q", box.value.trim());
          location.replace(live.href);
        } else {
          location.reload();
        }
      }).catch(function () { /* still offline */ }).then(function () { probing = false; });
    };
    window.addEventListener("online", probe);
    setInterval(probe, 5000);
  }

  // Search as you type without a network (app.js asks): the saved pages in this language whose
  // title or text holds every word typed, titles first.
  var input = document.getElementById("q"), results = document.getElementById("results");
  var index = null;
  function fold(text) {
    return String(text).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ");
  }
  function savedIndex() {
    if (index) { return index; }
    index = saved().then(function (copies) {
      var seen = {}, pages = [];
      return Promise.all(copies.map(function (copy) {
        var type = copy.response ? copy.response.headers.get("Content-Type") || "" : "";
        if (type.indexOf("text/html") !== 0) { return null; }
        return copy.response.clone().text().then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          var main = page.querySelector("main");
          var where = new URL(copy.url, location.href);
          if (!main || page.documentElement.lang !== lang || (where.pathname === "/" && where.searchParams.get("q"))) { return; }
          // The form's choices (every pest, every crop) would match any word: left out.
          Array.prototype.forEach.call(main.querySelectorAll("form, select, nav, #saved"), function (node) { node.remove(); });
          var title = page.title.split(" · ")[0];
          var key = where.pathname + where.search;
          if (seen[key]) { return; }
          seen[key] = true;
          pages.push({ href: key, title: title, name: fold(title), text: fold(main.textContent) });
        });
      })).then(function () { return pages; });
    });
    return index;
  }
  if (input && results) {
    input.addEventListener("agro:offline-search", function (event) {
      var text = event.detail || "";
      var words = fold(text).trim().split(" ").filter(Boolean);
      savedIndex().then(function (pages) {
        if (input.value.trim() !== text) { return; }
        var hits = pages.filter(function (page) {
          return words.every(function (word) { return page.name.indexOf(word) >= 0 || page.text.indexOf(word) >= 0; });
        }).sort(function (a, b) {
          var at = words.every(function (w) { return a.name.indexOf(w) >= 0; }), bt = words.every(function (w) { return b.name.indexOf(w) >= 0; });
          return at === bt ? a.title.localeCompare(b.title) : at ? -1 : 1;
        }).slice(0, 30);
        results.textContent = "";
        hits.forEach(function (hit) {
          var li = document.createElement("li"), a = document.createElement("a");
          a.href = hit.href;
          a.textContent = hit.title;
          li.appendChild(a);
          results.appendChild(li);
        });
        results.setAttribute("data-query", text);
        results.setAttribute("data-offline", "true");
        var note = document.getElementById("offline-search");
        if (note) {
          note.textContent = note.getAttribute("data-text").replace("{0}", String(hits.length));
          note.hidden = false;
        }
        var status = document.getElementById("results-status");
        if (status && note) { status.textContent = note.textContent; }
        var empty = document.querySelector(".empty");
        if (empty) { empty.hidden = hits.length > 0; }
      });
    });
  }

  // The favorites page: how much is saved, in all and per favorite.
  var sizeLine = document.getElementById("saved-size");
  if (sizeLine) {
    saved().then(function (copies) {
      var total = copies.reduce(function (sum, copy) { return sum + copy.bytes; }, 0);
      var bytes = {};
      copies.forEach(function (copy) { if (copy.cache === "agro-favorites") { bytes[copy.url] = copy.bytes; } });
      sizeLine.textContent = sizeLine.getAttribute("data-text").replace("{0}", size(total, sizeLine)).replace("{1}", size(BUDGET, sizeLine));
      sizeLine.hidden = false;
      sizeLine.setAttribute("data-bytes", String(total));
      var kept = keptList();
      Object.keys(kept).forEach(function (id) {
        var link = document.querySelector("#favorites a[href='/product/" + encodeURIComponent(id).replace(/'/g, "%27") + "']");
        if (!link) { return; }
        var own = kept[id].core.concat(kept[id].extra).filter(function (url) { return LISTS.indexOf(url) < 0; })
          .reduce(function (sum, url) { return sum + (bytes[url] || 0); }, 0);
        var span = document.createElement("span");
        span.className = "detail size";
        span.setAttribute("data-bytes", String(own));
        span.textContent = " · " + size(own, sizeLine);
        link.parentNode.appendChild(span);
      });
    });
  }

  var button = document.getElementById("favorite");
  var card = document.getElementById("product");
  var offer = document.getElementById("offline-offer");
  if (!button || !card) { return; }
  var id = button.getAttribute("data-id");
  function comparisons() {
    var list = [];
    Array.prototype.forEach.call(card.querySelectorAll("a[href^='/uses']"), function (link) {
      var href = link.getAttribute("href");
      if (list.indexOf(href) < 0) { list.push(href); }
    });
    return list;
  }
  // What keeping the card cost, and the comparison pages offered with their size: the bytes
  // of the uses pages saved on this phone on average (with none saved, of the largest page
  // saved, so that the estimate errs on the side of a metered connection).
  function showOffer(bytes) {
    if (!offer) { return; }
    var kept = keptList()[id];
    offer.textContent = "";
    var line = document.createElement("p");
    line.className = "small";
    line.id = "offline-kept";
    line.setAttribute("data-bytes", String(bytes));
    line.textContent = offer.getAttribute("data-kept").replace("{0}", size(bytes, offer));
    offer.appendChild(line);
    offer.hidden = false;
    var more = comparisons();
    if (!kept || more.length === 0) { return; }
    if (kept.extra.length > 0) {
      saved().then(function (copies) {
        var extra = copies.filter(function (copy) { return copy.cache === "agro-favorites" && kept.extra.indexOf(copy.url) >= 0; })
          .reduce(function (sum, copy) { return sum + copy.bytes; }, 0);
        var done = document.createElement("p");
        done.className = "small";
        done.id = "offline-compared";
        done.setAttribute("data-bytes", String(extra));
        done.textContent = offer.getAttribute("data-saved").replace("{0}", size(extra, offer));
        offer.appendChild(done);
      });
      return;
    }
    saved().then(function (copies) {
      var uses = copies.filter(function (copy) { return copy.url.indexOf("/uses?") === 0 && copy.bytes > 0; });
      var each = uses.length > 0 ? uses.reduce(function (sum, copy) { return sum + copy.bytes; }, 0) / uses.length
        : copies.reduce(function (most, copy) { return Math.max(most, copy.bytes); }, 4096);
      var ask = document.createElement("p");
      ask.className = "small";
      ask.id = "offline-ask";
      ask.setAttribute("data-pages", String(more.length));
      ask.setAttribute("data-estimate", String(Math.round(each * more.length)));
      ask.textContent = offer.getAttribute("data-offer").replace("{0}", String(more.length)).replace("{1}", size(each * more.length, offer)) + " ";
      var save = document.createElement("button");
      save.type = "button";
      save.id = "offline-more";
      save.className = "secondary";
      save.textContent = offer.getAttribute("data-save");
      save.addEventListener("click", function () {
        save.disabled = true;
        var all = keptList();
        if (!all[id]) { return; }
        all[id].extra = more;
        write(keptKey, all);
        send({ keep: more, extra: true }, function () { showOffer(bytes); });
      });
      ask.appendChild(save);
      offer.appendChild(ask);
    });
  }
  function keep() {
    var all = keptList();
    all[id] = { lang: lang, core: core(id), extra: [] };
    write(keptKey, all);
    send({ keep: all[id].core }, function (answer) { showOffer(answer.bytes || 0); });
  }
  // A favorite opened again: what it keeps, and the offer if the comparison pages are not kept.
  if (read("agro.favorites", []).indexOf(id) >= 0) {
    var mine = keptList()[id];
    if (mine) {
      saved().then(function (copies) {
        var bytes = copies.filter(function (copy) { return copy.cache === "agro-favorites" && mine.core.indexOf(copy.url) >= 0; })
          .reduce(function (sum, copy) { return sum + copy.bytes; }, 0);
        showOffer(bytes);
      });
    }
  }
  // After app.js has updated the favorites (its listener was added first).
  button.addEventListener("click", function () {
    var favorite = read("agro.favorites", []).indexOf(id) >= 0;
    var kept = keptList();
    if (favorite) {
      keep();
      return;
    }
    var mine = kept[id] || { core: [], extra: [] };
    delete kept[id];
    var still = others(kept, id, "core").concat(others(kept, id, "extra"));
    send({ drop: mine.core.concat(mine.extra).filter(function (url) { return still.indexOf(url) < 0; }) });
    write(keptKey, kept);
    if (offer) { offer.hidden = true; offer.textContent = ""; }
  });
})();
