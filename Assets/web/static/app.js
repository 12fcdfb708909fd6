// agro web: progressive enhancement only. Every page works without this file; it adds
// search as you type and favorites kept in this browser (localStorage, by product id, so
// they survive catalog updates). Content is put into the page as text, never as HTML.
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
  function hrefFor(hit) {
    var id = encodeURIComponent(hit.id);
    switch (hit.kind) {
      case "product": return "/product/" + id;
      case "pest": return "/pest/" + id;
      case "culture": return "/culture/" + id;
      case "substance": return "/substance/" + id;
      case "news": return "/news/" + id;
      case "region": return "/regions?region=" + id + "#contacts";
      default: return "/products?company=" + id;
    }
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
        fetch("/api/v1/search?perPage=20&lang=" + encodeURIComponent(lang) + "&q=" + encodeURIComponent(text))
          .then(function (response) { return response.ok ? response.json() : { items: [] }; })
          .then(function (page) {
            if (ticket !== latest) { return; }
            results.textContent = "";
            page.items.forEach(function (hit) { results.appendChild(item(hrefFor(hit), hit.name, hit.detail || "")); });
            results.setAttribute("data-query", text);
            // Announced by screen readers (role=status): how many were found.
            var status = document.getElementById("results-status");
            if (status) {
              status.textContent = page.total > 0 ? status.getAttribute("data-found").replace("{0}", String(page.total))
                : status.getAttribute("data-none");
            }
            var empty = document.querySelector(".empty");
            if (empty) { empty.hidden = page.items.length > 0; }
          })
          .catch(function () { /* the form still works */ });
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

  // The favorites page: names come from the API in the page's language.
  var list = document.getElementById("favorites");
  if (list) {
    var ids = favorites();
    if (ids.length === 0) { list.appendChild(item("/products", list.getAttribute("data-empty"), "")); }
    ids.forEach(function (id) {
      var li = item("/product/" + encodeURIComponent(id), id, "");
      list.appendChild(li);
      fetch("/api/v1/product/" + encodeURIComponent(id) + "?lang=" + encodeURIComponent(lang))
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (product) { if (product) { li.firstChild.textContent = product.name; } })
        .catch(function () {});
    });
  }
})();
