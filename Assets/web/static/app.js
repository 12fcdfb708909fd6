// agro web: progressive enhancement only. Every page works without this file; it adds
// search as you type and favorites kept in this browser (localStorage, by product id, so
// they survive catalog updates). Content is put into the page as text, never as HTML; search
// results are the elements of the server's own results page, parsed inertly (DOMParser).
"use strict";
(function () {
  var lang = document.body.getAttribute("data-lang") || "en";
  var favoritesKey = "agro.favorites";

  function favorites() {
    try {
      var list = JSON.parse(localStorage.getItem(favoritesKey) || "[]");
      return Array.isArray(list) ? list.filter(function (id) { return typeof id === "string"; }) : [];
    } catch (e) { return []; }
  }
  function saveFavorites(list) {
    try { localStorage.setItem(favoritesKey, JSON.stringify(list)); } catch (e) { /* storage off: nothing kept */ }
  }
  function item(href, name, detail) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = href;
    a.textContent = name;
    li.appendChild(a);
    if (detail) {
      var span = document.createElement("span");
      span.className = "detail";
      span.textContent = " " + detail;
      li.appendChild(span);
    }
    return li;
  }

  // Search as you type: the same results the form gives, fetched from the JSON API.
  var input = document.getElementById("q");
  var results = document.getElementById("results");
  if (input && results) {
    var timer = null, latest = 0;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var text = input.value.trim();
        var ticket = ++latest;
        if (text.length < 2) { return; }
        // The server's own results page, so that a hit reads as without script: its kind and
        // category in the page's language, the expired mark, a news item's date.
        fetch("/?lang=" + encodeURIComponent(lang) + "&q=" + encodeURIComponent(text))
          .then(function (response) {
            // No network: the worker answered with its offline page or a saved copy.
            if (response.headers.get("X-Agro-Offline") || response.headers.get("X-Agro-Saved")) { throw new Error("offline"); }
            return response.ok ? response.text() : "";
          })
          .then(function (html) {
            if (ticket !== latest) { return; }
            var offline = document.getElementById("offline-search");
            if (offline) { offline.hidden = true; }
            results.removeAttribute("data-offline");
            var found = new DOMParser().parseFromString(html, "text/html").getElementById("results");
            var hits = found ? Array.prototype.slice.call(found.children) : [];
            var total = found ? Number(found.getAttribute("data-total")) || hits.length : 0;
            results.textContent = "";
            hits.forEach(function (hit) { results.appendChild(document.importNode(hit, true)); });
            results.setAttribute("data-query", text);
            // Announced by screen readers (role=status): how many were found.
            var status = document.getElementById("results-status");
            if (status) {
              status.textContent = total > 0 ? status.getAttribute("data-found").replace("{0}", String(total))
                : status.getAttribute("data-none");
            }
            var empty = document.querySelector(".empty");
            if (empty) { empty.hidden = hits.length > 0; }
          })
          .catch(function () {
            // offline.js searches the pages saved on this phone instead (the form still works).
            if (ticket === latest) { input.dispatchEvent(new CustomEvent("agro:offline-search", { detail: text })); }
          });
      }, 150);
    });
  }

  // The favorite button on a product card.
  var button = document.getElementById("favorite");
  if (button) {
    var id = button.getAttribute("data-id");
    var show = function () {
      var on = favorites().indexOf(id) >= 0;
      button.textContent = button.getAttribute(on ? "data-remove" : "data-add");
      button.setAttribute("aria-pressed", on ? "true" : "false");
    };
    button.hidden = false;
    show();
    button.addEventListener("click", function () {
      var list = favorites(), at = list.indexOf(id);
      if (at >= 0) { list.splice(at, 1); } else { list.push(id); }
      saveFavorites(list);
      show();
    });
  }

  // The weather page: the browser's location fills the coordinates (a region chosen is cleared).
  var locate = document.getElementById("locate");
  var at = document.getElementById("at");
  if (locate && at && navigator.geolocation) {
    locate.hidden = false;
    locate.addEventListener("click", function () {
      navigator.geolocation.getCurrentPosition(function (position) {
        at.value = position.coords.latitude.toFixed(4) + "," + position.coords.longitude.toFixed(4);
        var region = at.form.querySelector("select[name=region]");
        if (region) { region.value = ""; }
        at.form.submit();
      }, function () { at.focus(); }, { timeout: 10000, maximumAge: 600000 });
    });
  }

  // A catalog date "2025-06-30" as the page's language writes it (the layout's data-date:
  // "{2}.{1}.{0}" fills day, month, year).
  function localDate(iso) {
    var parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
    var pattern = document.body.getAttribute("data-date");
    if (!parts || !pattern) { return iso; }
    return pattern.replace(/\{([012])\}/g, function (_, i) { return parts[Number(i) + 1]; });
  }
  function isoToday() {
    var now = new Date(), two = function (n) { return (n < 10 ? "0" : "") + n; };
    return now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate());
  }

  // The favorites page: names come from the API in the page's language (kept offline for a
  // favorite), with the registration number and, once it has run out, the expired mark.
  var list = document.getElementById("favorites");
  if (list) {
    var ids = favorites();
    if (ids.length === 0) { list.appendChild(item("/products", list.getAttribute("data-empty"), "")); }
    ids.forEach(function (id) {
      var li = item("/product/" + encodeURIComponent(id), id, "");
      list.appendChild(li);
      fetch("/api/v1/product/" + encodeURIComponent(id) + "?lang=" + encodeURIComponent(lang))
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (product) {
          if (!product) { return; }
          li.firstChild.textContent = product.name;
          var expired = list.getAttribute("data-expired");
          if (product.registrationExpiry && product.registrationExpiry < isoToday() && expired) {
            var mark = document.createElement("span");
            mark.className = "expired";
            mark.textContent = expired.replace("{0}", localDate(product.registrationExpiry));
            li.insertBefore(mark, li.firstChild.nextSibling);
            li.insertBefore(document.createTextNode(" "), mark);
          }
          if (product.registrationNumber) {
            var reg = document.createElement("span");
            reg.className = "reg";
            reg.textContent = product.registrationNumber;
            li.appendChild(document.createTextNode(" "));
            li.appendChild(reg);
          }
        })
        .catch(function () {});
    });
  }
})();
