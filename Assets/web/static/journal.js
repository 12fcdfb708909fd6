// agro web's field journal offline. A record saved on the form with no network is kept in the
// browser (IndexedDB, "agro-journal"), listed on its field's page as not sent and not checked,
// and sent to POST /api/v1/journal with the id made here (a resend is stored once) when the
// network returns: on the "online" event, on each journal page's load and every 20 seconds.
// The server checks it, as every record; its findings, worded by the server in the page's
// language, are then shown on the field's page until the person marks them seen. No rule is
// checked here. The pages work without this file (the form posts to the server).
"use strict";
(function () {
  if (!window.indexedDB || !window.fetch) { return; }
  var lang = document.body.getAttribute("data-lang") || "en";
  var STORE = "outbox";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open("agro-journal", 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "id" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }
  function transact(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result !== undefined ? result.result : result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }
  function all() { return transact("readonly", function (store) { return store.getAll(); }); }
  function put(entry) { return transact("readwrite", function (store) { store.put(entry); }); }
  function remove(id) { return transact("readwrite", function (store) { store["delete"](id); }); }

  function uuid() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // A number as the page's language writes it ("0,75", "2 000"); what cannot be read is sent
  // as typed, and the server's answer says what is wrong with it.
  function number(text) {
    var plain = String(text).trim().replace(/[\s\u00a0\u202f\u2009]/g, "");
    if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(plain) && lang === "en") { plain = plain.replace(/,/g, ""); }
    plain = plain.replace(",", ".");
    var value = Number(plain);
    return plain !== "" && isFinite(value) ? value : text;
  }

  // The form as the API takes a record (names or ids; the server resolves and checks them).
  function recordOf(form) {
    var value = function (name) { var field = form.elements[name]; return field ? field.value.trim() : ""; };
    var record = { id: value("id"), field: form.getAttribute("data-field").split("/").pop(), start: value("start"), products: [] };
    if (value("bbch")) { record.bbch = number(value("bbch")); }
    for (var index = 1; form.elements["product" + index]; index++) {
      if (!value("product" + index)) { continue; }
      record.products.push({
        product: value("product" + index), dose: number(value("dose" + index)), unit: value("unit" + index) || "l/ha",
        pests: value("pests" + index).split(";").map(function (p) { return p.trim(); }).filter(Boolean)
      });
    }
    ["water", "area"].forEach(function (name) { if (value(name)) { record[name] = number(value(name)); } });
    ["operator", "notes"].forEach(function (name) { if (value(name)) { record[name] = value(name); } });
    record.weather = {};
    ["wind", "gusts", "temperature", "humidity", "rain"].forEach(function (name) {
      if (value(name)) { record.weather[name] = { value: number(value(name)), source: value(name + "Source") || "measured" }; }
    });
    return record;
  }

  // "29.05.2026 07:30 · Product 1,5 l/ha": the day as the page writes dates (its data-date
  // pattern), the doses as they were typed.
  function summary(record, form) {
    var pattern = document.body.getAttribute("data-date") || "{0}-{1}-{2}";
    var day = record.start.slice(0, 10).split("-");
    var when = pattern.replace("{0}", day[0]).replace("{1}", day[1]).replace("{2}", day[2]) + " " + record.start.slice(11, 16);
    var names = [];
    for (var index = 1; form.elements["product" + index]; index++) {
      var product = form.elements["product" + index].value.trim();
      if (!product) { continue; }
      var option = form.querySelector("#journal-products option[value='" + CSS.escape(product) + "']");
      var unit = form.elements["unit" + index];
      names.push((option ? option.textContent : product) + " " + form.elements["dose" + index].value.trim() + " " +
        (unit && unit.selectedIndex >= 0 ? unit.options[unit.selectedIndex].textContent : ""));
    }
    return when.trim() + " · " + names.join(" + ");
  }

  // --- the record form -------------------------------------------------------------------

  var form = document.getElementById("journal-record");
  if (form) {
    if (form.getAttribute("data-fresh")) {
      // A form from the saved pages must not lend its id to a second record; "now" is the phone's.
      form.elements.id.value = uuid();
      var now = new Date(Date.now() - new Date().getTimezoneOffset() * 60000);
      form.elements.start.value = now.toISOString().slice(0, 16);
    }
    var status = document.getElementById("journal-status");
    var bypass = false;
    var keep = function () {
      var record = recordOf(form);
      var entry = { id: record.id, field: record.field, lang: lang, record: record, state: "pending",
        summary: summary(record, form), kept: new Date().toISOString() };
      return put(entry).then(function () { location.assign(form.getAttribute("data-field")); });
    };
    form.addEventListener("submit", function (event) {
      if (bypass) { return; }
      var action = event.submitter ? event.submitter.value : "save";
      if (navigator.onLine !== false && action === "check") { return; }
      event.preventDefault();
      if (navigator.onLine === false) {
        if (action === "save") { keep(); } else { status.textContent = form.getAttribute("data-offline-check"); status.hidden = false; }
        return;
      }
      // Saved through the server; a network that fails on the way keeps the record here.
      var data = new URLSearchParams(new FormData(form));
      data.set("action", "save");
      fetch(form.action, { method: "POST", body: data, credentials: "same-origin" }).then(function (response) {
        if (response.redirected) { location.assign(response.url); return; }
        // The server's answer with what to mend beside its field: posted again as a page
        // (nothing was stored, so the second post stores nothing either).
        bypass = true;
        event.submitter ? event.submitter.click() : form.submit();
      }, keep);
    });
  }

  // --- the field's page: what is kept, what was sent ----------------------------------------

  var pending = document.getElementById("pending");
  var sent = document.getElementById("sent");

  function text(tag, content, className) {
    var element = document.createElement(tag);
    element.textContent = content;
    if (className) { element.className = className; }
    return element;
  }

  function show() {
    if (!pending) { return Promise.resolve(); }
    var field = pending.getAttribute("data-field");
    return all().then(function (entries) {
      var mine = entries.filter(function (entry) { return entry.field === field; });
      var waiting = mine.filter(function (entry) { return entry.state !== "sent"; });
      var done = mine.filter(function (entry) { return entry.state === "sent"; });
      var list = pending.querySelector("ul");
      list.textContent = "";
      waiting.forEach(function (entry) {
        var item = document.createElement("li");
        item.className = "pending";
        item.appendChild(text("p", entry.summary, "targets"));
        if (entry.state === "refused") {
          item.appendChild(text("p", pending.getAttribute("data-refused") + ": " + entry.message, "finding error"));
          var button = text("button", pending.getAttribute("data-discard"), "secondary");
          button.type = "button";
          button.addEventListener("click", function () { remove(entry.id).then(show); });
          item.appendChild(button);
        } else {
          item.appendChild(text("p", pending.getAttribute("data-pending"), "status-pending"));
        }
        list.appendChild(item);
      });
      pending.hidden = waiting.length === 0;
      list = sent.querySelector("ul");
      list.textContent = "";
      done.forEach(function (entry) {
        var item = document.createElement("li");
        if (entry.errors > 0) { item.className = "has-errors"; }
        var head = text("p", "", "targets");
        var link = text("a", entry.summary);
        link.href = "/journal/record/" + entry.id;
        head.appendChild(link);
        item.appendChild(head);
        item.appendChild(text("p", sent.getAttribute("data-sent"), "status-sent"));
        var findings = document.createElement("ul");
        findings.className = "findings";
        entry.findings.forEach(function (finding) {
          var mark = finding.severity === "error" ? "✗ " : finding.severity === "warning" ? "! " : "· ";
          findings.appendChild(text("li", mark + finding.message, "finding " + finding.severity));
        });
        if (entry.findings.length === 0) { findings.appendChild(text("li", "✓ " + sent.getAttribute("data-ok"), "finding info")); }
        item.appendChild(findings);
        var seen = text("button", sent.getAttribute("data-seen"), "secondary");
        seen.type = "button";
        seen.addEventListener("click", function () { remove(entry.id).then(show); });
        item.appendChild(seen);
        list.appendChild(item);
      });
      sent.hidden = done.length === 0;
    });
  }

  // Sends what waits, one record at a time; a record the server refuses is kept with its words.
  var sending = false;
  function send() {
    if (sending || navigator.onLine === false) { return Promise.resolve(); }
    sending = true;
    return all().then(function (entries) {
      return entries.filter(function (entry) { return entry.state === "pending"; }).reduce(function (chain, entry) {
        return chain.then(function () {
          return fetch("/api/v1/journal?lang=" + encodeURIComponent(entry.lang || lang), {
            method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(entry.record),
            credentials: "same-origin"
          }).then(function (response) {
            return response.json().then(function (answer) {
              if (response.ok) {
                var findings = (answer.record && answer.record.findings || []).concat(answer.season || []);
                entry.state = "sent";
                entry.findings = findings.map(function (f) { return { severity: f.severity, message: f.message }; });
                entry.errors = answer.record ? answer.record.errors : 0;
                return put(entry);
              }
              if (response.status >= 400 && response.status < 500 && response.status !== 429) {
                entry.state = "refused";
                entry.message = answer.error && answer.error.message || String(response.status);
                return put(entry);
              }
            }, function () { /* not JSON: tried again later */ });
          }, function () { /* no network yet */ });
        });
      }, Promise.resolve());
    }).then(function () { sending = false; return show(); }, function () { sending = false; });
  }

  show().then(send);
  window.addEventListener("online", send);
  setInterval(send, 20000);
})();
