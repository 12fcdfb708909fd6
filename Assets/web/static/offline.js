// agro web offline: registers the service worker (/sw.js) and, when a product becomes a
// favorite, asks it to keep the product's card, the uses pages the card links to, the
// favorites page and the product's JSON, so that they open without a network; they are let
// go when the product stops being a favorite. Pages work without this file.
"use strict";
(function () {
  if (!("serviceWorker" in navigator)) { return; }
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* http on another host: no offline */ });

  var keptKey = "agro.kept";  // product id -> the URLs kept for it
  var lang = document.body.getAttribute("data-lang") || "en";
  function read(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key) || "null") || fallback; } catch (e) { return fallback; }
  }
  function write(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage off */ }
  }
  function send(message) {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) { registration.active.postMessage(message); }
    });
  }

  var button = document.getElementById("favorite");
  var card = document.getElementById("product");
  if (!button || !card) { return; }
  var id = button.getAttribute("data-id");
  function urls() {
    var list = [location.pathname, "/favorites", "/api/v1/product/" + encodeURIComponent(id) + "?lang=" + encodeURIComponent(lang)];
    Array.prototype.forEach.call(card.querySelectorAll("a[href^='/uses']"), function (link) {
      var href = link.getAttribute("href");
      if (list.indexOf(href) < 0) { list.push(href); }
    });
    return list;
  }
  // After app.js has updated the favorites (its listener was added first).
  button.addEventListener("click", function () {
    var favorite = read("agro.favorites", []).indexOf(id) >= 0;
    var kept = read(keptKey, {});
    if (favorite) {
      kept[id] = urls();
      send({ keep: kept[id] });
    } else {
      var mine = kept[id] || [];
      delete kept[id];
      var others = Object.keys(kept).reduce(function (all, key) { return all.concat(kept[key]); }, []);
      send({ drop: mine.filter(function (url) { return others.indexOf(url) < 0; }) });
    }
    write(keptKey, kept);
  });
})();
