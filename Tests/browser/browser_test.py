#!/usr/bin/env python3
"""Drives headless Chromium through agro web over the DevTools protocol (standard library
only, plus axe-core fetched from PyPI) as an agronomist with a 360-px phone would:

1. crawls the site from the home page over HTTP (bounded): every internal link, stylesheet,
   script and image answers 200 and no page shows a raw interface key;
2. opens one page of every kind found, plus the offline page and the weather at a point, in
   English, Russian and Kazakh at 360 px: nothing wider than the screen, no raw key, the menu in
   the page's language, axe-core with no serious or critical violation, controls at least
   24 px with borders at 3:1, tap targets (lone links, summaries, checkboxes) at least 24 px high,
   nothing sticking out of its card; with the text at 200 % (the root font size doubled, as the
   browser's setting does) the body text grows, nothing scrolls sideways and targets stay 24 px;
   at 180 px (zoom at 200 %) nothing scrolls sideways; saves a screenshot of each into
   SCREENSHOTS (never the repository);
3. fills in the tank and the plan's short form with a typo in each language: what was typed
   stays, the mistake is marked below its field in the page's words, "2 000" is read, a pest's
   shared name offers links; then searches as one types (results announced), opens a pest's
   and a product's card, keeps a favorite; in Kazakh, an expired product found as one types
   and kept as a favorite is marked with its date in Kazakh; the same pages without JavaScript;
4. offline: the manifest and its icons, the service worker; a visited card reloaded with the
   network off (Network.emulateNetworkConditions on the page and the worker) shows the card and
   the date it was saved; a favorite's card and the pages it links to open offline even when
   the pages seen lately are gone; a page never seen gives the offline page.
5. the field journal (agro web --journal, its user database in the run's temporary folders) in
   kk, ru and en: a field added, a record with a dose above the label written online and its
   dose finding shown in the page's language; the network off, a record written on the form is
   kept in the browser, listed as not sent and not checked, and stays after a reload; the
   network back, it is sent once and its findings shown; the journal's pages axe-clean.
6. one journal for a farm (a second agro web --farm-journal, AGRO_FARM_URL; a farm and three
   accounts made with the CLI by run.sh): two phones (browser contexts) of two agronomists and
   an inspector's, signing in on the sign-in page; a record written offline on one phone is
   sent when the network returns and read on the other in another language; a record kept when
   the session has ended asks to sign in and is sent after it; the inspector's Save is refused
   with the form kept and nothing stored.

usage: browser_test.py BASE_URL SCREENSHOTS_DIR
"""
import base64, csv, hashlib, html.parser, io, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time
import urllib.error, urllib.parse, urllib.request, zipfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LANGUAGES = ["en", "ru", "kk"]
WIDTH = 360
CRAWL_LIMIT = 400
# axe-core 4.12's axe.min.js ships in this wheel; its digest pins what runs.
AXE_PACKAGE = "axe-playwright-python==0.1.8"
AXE_WHEEL_SHA256 = "fdd263c998388f1a8e67cad02677e612d946248bd44d163be5e8650ea31f95f8"
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


class DevTools:
    """A WebSocket client for Chromium's browser endpoint (RFC 6455, client frames masked),
    speaking to targets through flat sessions."""

    def __init__(self, url):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise SystemExit(f"DevTools handshake failed: {head!r}")
        self.next_id = 0

    def _send(self, text):
        data = text.encode()
        header = bytearray([0x81])
        if len(data) < 126:
            header.append(0x80 | len(data))
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data)) if len(data) < 65536 else _mask(data, mask)
        self.sock.sendall(bytes(header) + mask + masked)

    def _read(self, count):
        data = bytearray()
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise SystemExit("DevTools connection closed")
            data += chunk
        return bytes(data)

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            message += self._read(length)
            if first & 0x80:
                return message.decode()

    def call(self, method, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self._send(json.dumps(message))
        while True:  # events are not needed: every wait polls the page
            answer = json.loads(self._receive())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise SystemExit(f"{method}: {answer['error']}")
                return answer.get("result", {})


def _mask(data, mask):
    """XOR-masks a large payload quickly (axe.min.js is 570 kB)."""
    repeated = (mask * (len(data) // 4 + 1))[:len(data)]
    return (int.from_bytes(data, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(data), "big")


class Tab:
    """One page target of the browser."""

    def __init__(self, tools, target_id):
        self.tools = tools
        self.session = tools.call("Target.attachToTarget", targetId=target_id, flatten=True)["sessionId"]

    def call(self, method, **params):
        return self.tools.call(method, session=self.session, **params)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise SystemExit(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.1)
        state = self.evaluate("[location.href, document.readyState, document.title]")
        raise SystemExit(f"FAIL: timed out waiting for {what} (the tab shows {state})")

    def open(self, url, ready="true", what=None):
        """Navigates and waits for the new document (the old one is marked) to load and for `ready`."""
        self.evaluate("window.agroOld = true")
        self.call("Page.navigate", url=url)
        self.loaded(ready, what or url)

    def reload(self, ready="true", what="the page reloaded"):
        self.evaluate("window.agroOld = true")
        self.call("Page.reload")
        self.loaded(ready, what)

    def loaded(self, ready, what, timeout=20):
        self.wait_for(f"!window.agroOld && document.readyState === 'complete' && !!document.body && ({ready})", what, timeout)

    def screenshot(self, path, full=True):
        height = min(int(self.evaluate("document.documentElement.scrollHeight")), 6000) if full else 780
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=full,
                         clip={"x": 0, "y": 0, "width": WIDTH, "height": height, "scale": 1})
        with open(path, "wb") as file:
            file.write(base64.b64decode(shot["data"]))


FAILED = []


def check(condition, message):
    """Stops at the first failure; with AGRO_BROWSER_ALL=1 goes on and fails at the end."""
    if not condition:
        if os.environ.get("AGRO_BROWSER_ALL") == "1":
            FAILED.append(message)
            print("FAIL:", message)
            return
        raise SystemExit("FAIL: " + message)
    print("ok:", message)


# --- interface strings ------------------------------------------------------------------

def strings():
    """The interface strings per language, with the fallbacks the program applies (kk -> ru -> en)."""
    folder = os.path.join(ROOT, "Localizable")
    tables = {code: json.load(open(os.path.join(folder, code + ".json"), encoding="utf-8")) for code in LANGUAGES}
    chains = json.load(open(os.path.join(folder, "fallbacks.json"), encoding="utf-8"))
    def lookup(code, key):
        for language in [code] + chains.get(code, []) + ["en"]:
            if key in tables.get(language, {}):
                return tables[language][key]
        return key
    return tables, lookup


def raw_key_finder(keys):
    """A function listing the raw keys in a text: every key of en.json, and the stem of a
    counted key (`use.phi` for `use.phi.one`), as printed when a lookup fails."""
    known = set(keys)
    for key in keys:
        stem, _, last = key.rpartition(".")
        if last in PLURAL_FORMS and stem:
            known.add(stem)
    token = re.compile(r"(?<![\w./@-])[a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+(?![\w/@-])")
    return lambda text: sorted({t for t in token.findall(text) if t in known})


# --- crawl ------------------------------------------------------------------------------

class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.text = [], []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        for name in ("href", "src"):
            if attrs.get(name) and tag in ("a", "link", "script", "img"):
                self.links.append(attrs[name])
        for name in ("aria-label", "placeholder", "title", "alt", "data-add", "data-remove", "data-found", "data-none", "data-empty"):
            if attrs.get(name):
                self.text.append(attrs[name])

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def crawl(base, raw_keys):
    """Breadth first from the home page, at most CRAWL_LIMIT URLs, four at a time."""
    origin = urllib.parse.urlsplit(base)
    seen, queue, pages, failures, raw = {"/"}, ["/"], {}, [], {}
    with ThreadPoolExecutor(max_workers=4) as pool:
        while queue:
            batch, queue = queue[:16], queue[16:]
            for path, (status, headers, body) in zip(batch, pool.map(lambda p: fetch(base + p), batch)):
                if status != 200:
                    failures.append(f"{path} -> {status}")
                    continue
                if not headers.get("Content-Type", "").startswith("text/html"):
                    continue
                parser = Links()
                parser.feed(body.decode("utf-8", "replace"))
                pages[path] = headers.get("Content-Language", "")
                found = raw_keys(" ".join(parser.text))
                if found:
                    raw[path] = found
                for link in parser.links:
                    target = urllib.parse.urlsplit(urllib.parse.urljoin(base + path, link))
                    if target.scheme not in ("http", "https") or target.netloc != origin.netloc:
                        continue
                    local = target.path + ("?" + target.query if target.query else "")
                    if local not in seen and len(seen) < CRAWL_LIMIT:
                        seen.add(local)
                        queue.append(local)
    return seen, pages, failures, raw


def kind_of(path):
    """The kind of a page: its route (first path segment) and its query's names but lang and page."""
    parts = urllib.parse.urlsplit(path)
    segments = [s for s in parts.path.split("/") if s]
    names = sorted({name for name, _ in urllib.parse.parse_qsl(parts.query)} - {"lang", "page", "perPage"})
    route = "/" + segments[0] + ("/*" if len(segments) > 1 else "") if segments else "/"
    return route + ("?" + "&".join(names) if names else "")


def with_lang(url, code):
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if k != "lang"] + [("lang", code)]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


# --- axe-core ---------------------------------------------------------------------------

def axe_source():
    """axe.min.js from the PyPI wheel, downloaded into a temporary folder and checked."""
    folder = tempfile.mkdtemp(prefix="agro-axe-")
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check",
                        "--dest", folder, AXE_PACKAGE], check=True, stdout=subprocess.DEVNULL)
        wheel = next(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".whl"))
        digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        if digest != AXE_WHEEL_SHA256:
            raise SystemExit(f"FAIL: {os.path.basename(wheel)} has digest {digest}, expected {AXE_WHEEL_SHA256}")
        with zipfile.ZipFile(wheel) as archive:
            return archive.read("axe_playwright_python/axe.min.js").decode("utf-8")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


AXE_RUN = """axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}})
  .then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))})))"""

# Visible form controls and buttons: at least 24 x 24 px, and their edge (border, or for a
# filled button its background) at least 3:1 against what is behind them (WCAG 1.4.11).
CONTROLS = r"""(() => {
  const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = el => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  const problems = [];
  for (const el of document.querySelectorAll('button, select, textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio])')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || el.closest('[hidden]')) continue;
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : el.name ? '[name=' + el.name + ']' : '');
    if (box.width < 24 || box.height < 24) problems.push(name + ' is ' + box.width.toFixed(0) + 'x' + box.height.toFixed(0) + ' px');
    const style = getComputedStyle(el), back = behind(el.parentElement);
    const border = parseFloat(style.borderTopWidth) > 0 ? ratio(rgb(style.borderTopColor), back) : 0;
    const fill = rgb(style.backgroundColor), filled = fill.length < 4 || fill[3] > 0 ? ratio(fill.slice(0, 3), back) : 0;
    if (Math.max(border, filled) < 3) problems.push(name + ' edge contrast ' + Math.max(border, filled).toFixed(2) + ':1');
  }
  return problems;
})()"""

# Elements whose right edge passes their card's (the card's border box): up to 3, named.
# What a region scrolling sideways inside the card holds (a wide table) may reach past it.
OUT_OF_CARD = r"""(() => {
  const scrolled = e => {
    for (let a = e.parentElement; a && !a.classList.contains('card'); a = a.parentElement)
      if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true;
    return false;
  };
  return Array.from(document.querySelectorAll('.card *')).filter(e => {
    const box = e.getBoundingClientRect(), card = e.closest('.card').getBoundingClientRect();
    return box.width > 0 && box.right > card.right + 0.5 && !e.closest('details:not([open]) > :not(summary)') && !scrolled(e);
  }).slice(0, 3).map(e => e.tagName.toLowerCase() + ' "' + e.textContent.trim().slice(0, 40) + '" ' + Math.round(e.getBoundingClientRect().right));
})()"""

# Numbers in a chart or on the map, as drawn after the SVG is scaled to the screen.
TINY_SVG_TEXT = r"""(() => Array.from(document.querySelectorAll('svg text')).filter(t => {
    const size = parseFloat(getComputedStyle(t).fontSize), svg = t.ownerSVGElement;
    return size * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width < 9;
  }).slice(0, 3).map(t => t.textContent + ' ' + t.getAttribute('class')))()"""

# A number to call or write to from the field: a target of 24 px at least (WCAG 2.2, 2.5.8).
SMALL_CONTACTS = r"""(() => Array.from(document.querySelectorAll('a[href^="tel:"], a[href^="mailto:"]'))
  .filter(a => a.getBoundingClientRect().height < 24).slice(0, 3)
  .map(a => a.textContent.trim() + ' ' + a.getBoundingClientRect().height.toFixed(0) + ' px'))()"""

# A word in a table cell split over two lines ("гер / биц / ид"): a table too wide for the
# screen must scroll, not break its words. Words with a hyphen, dash or slash may break there.
BROKEN_WORDS = r"""(() => {
  const broken = [];
  for (const cell of document.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && broken.length < 3; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\s\-\u2010-\u2015\/]{2,}/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
        if (tops.size > 1) { broken.push(match[0]); break; }
      }
    }
  }
  return broken;
})()"""

# Tap targets standing alone (WCAG 2.2, 2.5.8): a link that is a list's item, a chip or a menu
# entry, a summary, a checkbox: at least 24 px high. A link inside a sentence is exempt, as are
# the map's drawn regions (their list beside the map holds the same links).
TAP_TARGETS = r"""(() => {
  const small = [];
  for (const el of document.querySelectorAll('a, summary, input[type=checkbox], input[type=radio]')) {
    if (el.closest('svg') || el.classList.contains('skip') || el.closest('details:not([open]) > :not(summary)')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const parent = el.parentElement;
    const sentence = el.tagName === 'A' && parent && ['P', 'SMALL', 'SPAN', 'DIV', 'TD', 'LABEL'].includes(parent.tagName)
      && !parent.matches('.pest, .listed, .choices, .reach, .actions, .pages, .letters, .targets')
      && parent.textContent.trim().length > el.textContent.trim().length + 2;
    if (!sentence && box.height < 23.5)
      small.push(el.tagName.toLowerCase() + ' "' + el.textContent.trim().slice(0, 30) + '" ' + box.height.toFixed(1) + ' px');
  }
  return small.slice(0, 5);
})()"""

# The browser's text size at 200 %: what 1rem is doubles, as the setting does.
TEXT_200 = "document.documentElement.style.setProperty('font-size', '200%', 'important'); true"
TEXT_100 = "document.documentElement.style.removeProperty('font-size'); true"
WIDE = f"Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
WIDEST = """((width) => Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > width + 0.5)
  .slice(-3).map(e => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined ? '.' + e.className : '') + ' ' + Math.round(e.getBoundingClientRect().right)))"""


VISIBLE_TEXT = r"""(() => {
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], [alt], [data-add], [data-remove], [data-found], [data-none], [data-empty]'))
    for (const name of ['aria-label', 'placeholder', 'title', 'alt', 'data-add', 'data-remove', 'data-found', 'data-none', 'data-empty'])
      if (el.getAttribute(name)) parts.push(el.getAttribute(name));
  return parts.join('\n');
})()"""


def inspect(tab, url, code, label, axe, raw_keys, lookup, shots, problems):
    """One page in one language: width, raw keys, language of the menu, axe, controls."""
    tab.open(url)
    where = f"{label} [{code}]"
    width = tab.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    if width > WIDTH:
        wide = tab.evaluate(f"""Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > {WIDTH} + 0.5)
          .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + Math.round(e.getBoundingClientRect().right))""")
        problems.append(f"{where}: {width} px wide at a {WIDTH} px screen: {wide}")
    # Inside the page too: nothing sticks out of its card (a value kept on one line, a chip).
    out = tab.evaluate(OUT_OF_CARD)
    if out:
        problems.append(f"{where}: sticks out of its card: {out}")
    tiny = tab.evaluate(TINY_SVG_TEXT)
    if tiny:
        problems.append(f"{where}: chart or map text under 9 px: {tiny}")
    small = tab.evaluate(SMALL_CONTACTS)
    if small:
        problems.append(f"{where}: contact links under 24 px high: {small}")
    broken = tab.evaluate(BROKEN_WORDS)
    if broken:
        problems.append(f"{where}: words broken inside table cells: {broken}")
    found = raw_keys(tab.evaluate(VISIBLE_TEXT))
    if found:
        problems.append(f"{where}: raw interface keys {found}")
    if tab.evaluate("document.documentElement.lang") != code:
        problems.append(f"{where}: <html lang> is {tab.evaluate('document.documentElement.lang')}")
    menu = tab.evaluate("Array.from(document.querySelectorAll('nav.main a')).map(a => a.textContent.trim())")
    expected = [lookup(code, "web." + key) for key in ("search", "products", "cultures")]
    if menu[:3] != expected:
        problems.append(f"{where}: the menu reads {menu[:3]}, not {expected}")
    tab.evaluate(axe + "\n;true")
    violations = tab.evaluate(AXE_RUN)
    for violation in violations:
        problems.append(f"{where}: axe {violation['impact']} {violation['id']} ({violation['help']}): {violation['nodes']}")
    for problem in tab.evaluate(CONTROLS):
        problems.append(f"{where}: {problem}")
    small = tab.evaluate(TAP_TARGETS)
    if small:
        problems.append(f"{where}: tap targets under 24 px: {small}")
    # Text at 200 %: the body's text grows, nothing scrolls sideways, targets stay 24 px.
    tab.evaluate(TEXT_200)
    size = tab.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    if size < 31:
        problems.append(f"{where}: body text {size} px with the text at 200 % (it does not grow)")
    width = tab.evaluate(WIDE)
    if width > WIDTH:
        problems.append(f"{where}: {width} px wide at {WIDTH} px with the text at 200 %: {tab.evaluate(WIDEST + f'({WIDTH})')}")
    small = tab.evaluate(TAP_TARGETS)
    if small:
        problems.append(f"{where}: tap targets under 24 px with the text at 200 %: {small}")
    tab.evaluate(TEXT_100)
    # Zoom at 200 %: the page laid out in half the width.
    tab.call("Emulation.setDeviceMetricsOverride", width=WIDTH // 2, height=390, deviceScaleFactor=2, mobile=True)
    width = tab.evaluate(WIDE)
    if width > WIDTH // 2:
        problems.append(f"{where}: {width} px wide in {WIDTH // 2} px (zoom at 200 %): {tab.evaluate(WIDEST + f'({WIDTH // 2})')}")
    tab.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=780, deviceScaleFactor=1, mobile=True)
    name = re.sub(r"[^A-Za-z0-9]+", "-", label).strip("-") or "home"
    tab.screenshot(os.path.join(shots, f"{name}.{code}.png"))
    return not violations


# --- offline ------------------------------------------------------------------------------

def png_size(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "the icon is a PNG")
    return struct.unpack(">II", data[16:24])


WORKER_SESSIONS = {}


def set_offline(tools, tab, offline, context=None):
    """Network off (or on) for the page and for the service worker, which fetches for it (the
    workers of browser context `context` only, when given: another phone keeps its network)."""
    conditions = dict(offline=offline, latency=0, downloadThroughput=-1, uploadThroughput=-1)
    tab.call("Network.enable")
    tab.call("Network.emulateNetworkConditions", **conditions)
    workers = [t for t in tools.call("Target.getTargets")["targetInfos"] if t["type"] == "service_worker"
               and (context is None or t.get("browserContextId") == context)]
    if offline:
        check(len(workers) > 0, "the service worker runs")
    for worker in workers:
        # One session per worker, kept: conditions set through one session stay until it resets them.
        if worker["targetId"] not in WORKER_SESSIONS:
            session = tools.call("Target.attachToTarget", targetId=worker["targetId"], flatten=True)["sessionId"]
            tools.call("Network.enable", session=session)
            WORKER_SESSIONS[worker["targetId"]] = session
        tools.call("Network.emulateNetworkConditions", session=WORKER_SESSIONS[worker["targetId"]], **conditions)


def offline_checks(tools, tab, base, lookup, shots):
    # The manifest: what makes the app installable, from the server as the browser reads it.
    status, headers, body = fetch(base + "/static/manifest.webmanifest")
    manifest = json.loads(body)
    check(status == 200 and headers.get("Content-Type", "").startswith("application/manifest+json"), "the manifest is served")
    check(manifest.get("name") and manifest.get("short_name") and manifest.get("start_url") == "/"
          and manifest.get("display") == "standalone" and re.fullmatch(r"#[0-9a-f]{6}", manifest.get("theme_color", "")),
          f"the manifest has name, short name, start URL, display and theme colour: {manifest.get('short_name')}")
    types = set()
    for icon in manifest["icons"]:
        status, headers, data = fetch(base + icon["src"])
        check(status == 200 and headers.get("Content-Type") == icon["type"], f"icon {icon['src']} answers as {icon['type']}")
        types.add(icon["type"])
        if icon["type"] == "image/png":
            width, height = png_size(data)
            check(icon["sizes"] == f"{width}x{height}", f"{icon['src']} is {width}x{height} as declared")
        else:
            check(b"<svg" in data, f"{icon['src']} is an SVG")
    check({"image/png", "image/svg+xml"} <= types, "icons in SVG and PNG")
    status, headers, worker = fetch(base + "/sw.js")
    check(status == 200 and "javascript" in headers.get("Content-Type", "") and b"__VERSION__" not in worker,
          "the service worker is served from the root, versioned")
    policy = headers.get("Content-Security-Policy", "")
    check("worker-src 'self'" in policy and "manifest-src 'self'" in policy and "script-src 'self'" in policy,
          "the policy allows this site's worker and manifest only")

    # Chromium's own reading of the manifest, and the worker taking control.
    tab.open(base + "/?lang=ru")
    errors = tab.call("Page.getAppManifest").get("errors", [])
    check(errors == [], f"Chromium reads the manifest without errors: {errors}")
    tab.wait_for("navigator.serviceWorker.ready.then(r => !!r.active)", "the service worker")
    tab.wait_for("!!navigator.serviceWorker.controller", "the worker controlling the page")
    tab.wait_for("caches.keys().then(k => k.some(n => n.startsWith('agro-shell-')))", "the precached shell")
    shell = tab.evaluate("""caches.keys().then(k => caches.open(k.find(n => n.startsWith('agro-shell-'))))
      .then(c => c.keys()).then(r => r.map(q => new URL(q.url).pathname))""")
    check({"/static/app.css", "/static/app.js", "/offline/ru", "/static/icon-192.png"} <= set(shell), f"the shell is precached: {sorted(shell)}")

    # A card seen once, reloaded with the network off: the card, and when it was saved.
    first = tab.evaluate("fetch('/api/v1/products?perPage=3&lang=ru').then(r => r.json()).then(p => p.items.map(i => i.id))")
    card = base + "/product/" + urllib.parse.quote(first[0])
    tab.open(card, "!!document.getElementById('product')")
    name = tab.evaluate("document.querySelector('#product h1').textContent")
    check(tab.evaluate("document.getElementById('saved').hidden"), "online, the card has no saved-copy banner")
    tab.wait_for("caches.open('agro-pages').then(c => c.match(location.href)).then(r => !!r)", "the card kept as seen")
    set_offline(tools, tab, True)
    check(tab.evaluate("fetch('/api/v1/catalog').then(() => 'online', () => 'offline')") == "offline", "the network is off")
    before = time.time()
    tab.reload("!!document.getElementById('product')", "the card offline")
    check(tab.evaluate("document.querySelector('#product h1').textContent") == name, f"offline, the card shows {name}")
    check(not tab.evaluate("document.getElementById('saved').hidden"), "offline, the saved-copy banner is shown")
    banner = tab.evaluate("document.getElementById('saved').textContent").strip()
    check(banner.startswith(lookup("ru", "web.savedCopy")), f"the banner is in Russian: {banner}")
    saved = tab.evaluate("document.getElementById('saved-at').getAttribute('datetime')")
    stamp = time.mktime(time.strptime(saved[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    check(before - 600 < stamp <= time.time() + 1, f"the copy is dated when it was saved: {saved}")
    check(len(tab.evaluate("document.getElementById('saved-at').textContent").strip()) > 5, "the date is written out")
    tab.screenshot(os.path.join(shots, "offline-card.ru.png"), full=False)
    never = base + "/pest/never-visited-" + str(int(time.time()))
    tab.open(never)
    check(tab.evaluate("document.querySelector('main h1').textContent") == lookup("ru", "web.offlineTitle"),
          "a page never saved gives the offline page, in Russian")
    set_offline(tools, tab, False)

    # A favorite: its card, the pages it links to and the favorites page are kept apart.
    other = base + "/product/" + urllib.parse.quote(first[1])
    tab.open(other, "!!document.getElementById('product') && !document.getElementById('favorite').hidden")
    favorite = tab.evaluate("document.querySelector('#product h1').textContent")
    links = tab.evaluate("Array.from(document.querySelectorAll('#product a[href^=\"/uses\"]')).map(a => a.getAttribute('href'))")
    tab.evaluate("document.getElementById('favorite').click()")
    # The comparison pages are kept when asked for (offered with their size).
    tab.wait_for("!!document.getElementById('offline-more')", "the offer of the comparison pages")
    tab.evaluate("document.getElementById('offline-more').click()")
    wanted = ["/product/" + urllib.parse.quote(first[1]), "/favorites"] + links
    tab.wait_for(f"""caches.open('agro-favorites').then(c => c.keys()).then(k => k.map(r => new URL(r.url)).map(u => u.pathname + u.search))
      .then(kept => {json.dumps(wanted)}.every(u => kept.includes(u)))""", f"the favorite's pages kept: {wanted}")
    check(len(links) > 0, f"the favorite's card, favorites page and the {len(links)} uses pages it links to are kept")
    tab.evaluate("caches.delete('agro-pages')")
    set_offline(tools, tab, True)
    tab.open(other, "!!document.getElementById('product')")
    check(tab.evaluate("document.querySelector('#product h1').textContent") == favorite
          and not tab.evaluate("document.getElementById('saved').hidden"), f"offline, the favorite {favorite} opens, marked saved")
    for link in links[:3]:
        tab.open(base + link)
        check(not tab.evaluate("document.getElementById('saved').hidden")
              and tab.evaluate("document.querySelector('main h1').textContent") != lookup("ru", "web.offlineTitle"),
              f"offline, the uses page it links to opens: {link}")
    tab.open(base + "/favorites", "document.querySelectorAll('#favorites a').length === 1")
    tab.wait_for(f"document.querySelector('#favorites a').textContent === {json.dumps(favorite)}", "the favorite's name offline")
    check(True, "offline, the favorites page lists the favorite by name")
    tab.screenshot(os.path.join(shots, "offline-favorites.ru.png"), full=False)
    set_offline(tools, tab, False)
    tab.open(other, "!!document.getElementById('product') && !document.getElementById('favorite').hidden")
    tab.evaluate("document.getElementById('favorite').click()")
    tab.wait_for(f"""caches.open('agro-favorites').then(c => c.match({json.dumps(wanted[0])})).then(r => !r)""", "the unfavorited card let go")
    check(True, "a product no longer favorite is no longer kept")


# --- saving for offline costs what the person chooses; offline as a person expects ---

HERBICIDE = "2-4-d-ehe-850-ec"  # the demo herbicide whose favorite kept 81 pages on main
FAVORITE = "tebuconazole-250-ec"
KEPT_URLS = """caches.open('agro-favorites').then(c => c.keys())
  .then(k => k.map(r => new URL(r.url)).map(u => u.pathname + u.search))"""


def plural(lookup, code, key, count):
    """The form of a counted string CLDR gives `count` (en and kk: one, other; ru: one, few, many)."""
    if code == "ru":
        form = ("one" if count % 10 == 1 and count % 100 != 11 else
                "few" if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14 else "many")
    else:
        form = "one" if count == 1 else "other"
    return lookup(code, f"{key}.{form}").replace("{0}", str(count))


def sent_bytes(base, path, code):
    """A page's bytes as the phone's worker gets it: gzip, the language's cookie."""
    _, headers, body = fetch(base + path, {"Accept-Encoding": "gzip", "Cookie": f"agro_lang={code}"})
    return int(headers.get("Content-Length") or len(body))


def forget_saved(tab):
    tab.evaluate("""Promise.all(['agro-favorites', 'agro-pages'].map(n => caches.delete(n)))
      .then(() => { localStorage.removeItem('agro.kept'); localStorage.setItem('agro.favorites', '[]'); return true; })""")


def wait_quietly(tab, expression, what, timeout=30):
    """As Tab.wait_for, across a navigation the page makes itself (its context goes meanwhile)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if tab.evaluate(expression):
                return True
        except SystemExit:
            pass
        time.sleep(0.2)
    raise SystemExit(f"FAIL: timed out waiting for {what}")


def favorite_cost(tab, base, lookup, shots):
    """A favorite keeps its card, the lists, the favorites page and the product's JSON, and says
    what that cost; the comparison pages its card links to (81 for the demo herbicide, all kept
    silently on main) are offered with their count and size and kept only when asked for; the
    favorites page says what is saved. Sizes are checked against the pages fetched here as the
    phone fetched them."""
    figures = {}
    card = "/product/" + HERBICIDE
    for code in LANGUAGES:
        forget_saved(tab)
        tab.open(base + card + f"?lang={code}", "!!document.getElementById('product') && !document.getElementById('favorite').hidden")
        links = tab.evaluate("""Array.from(new Set(Array.from(document.querySelectorAll('#product a[href^="/uses"]'))
          .map(a => a.getAttribute('href'))))""")
        tab.evaluate("document.getElementById('favorite').click()")
        tab.wait_for("!!document.getElementById('offline-ask')", f"[{code}] the offer of the comparison pages")
        kept = tab.evaluate(KEPT_URLS)
        needed = {card, "/favorites", "/products", "/regions", "/news", f"/api/v1/product/{HERBICIDE}?lang={code}"}
        check(set(kept) == needed, f"[{code}] a favorite keeps its card, the lists, the favorites page and its JSON only: {sorted(kept)}")
        by_hand = sum(sent_bytes(base, url, code) for url in kept)
        shown = int(tab.evaluate("document.getElementById('offline-kept').getAttribute('data-bytes')"))
        text = tab.evaluate("document.getElementById('offline-kept').textContent")
        size = lookup(code, "size.kb").replace("{0}", str(max(1, round(shown / 1024))))
        check(abs(shown - by_hand) <= by_hand * 0.02 and text == lookup(code, "web.keptOffline").replace("{0}", size),
              f"[{code}] the card says what it kept: {text!r} ({shown} B; {by_hand} B fetched here)")
        ask = tab.evaluate("""(() => { const a = document.getElementById('offline-ask');
          return {pages: Number(a.getAttribute('data-pages')), estimate: Number(a.getAttribute('data-estimate')), text: a.textContent}; })()""")
        offer = lookup(code, "web.offerCompare")
        check(ask["pages"] == len(links) and ask["text"].startswith(offer.split("{0}")[0] + str(len(links)))
              and lookup(code, "web.saveCompare") in ask["text"],
              f"[{code}] the {len(links)} comparison pages are offered with their size: {ask['text']!r}")
        tab.screenshot(os.path.join(shots, f"favorite-offer.{code}.png"), full=False)
        tab.evaluate("document.getElementById('offline-more').click()")
        tab.wait_for("!!document.getElementById('offline-compared')", f"[{code}] the comparison pages kept")
        kept_all = tab.evaluate(KEPT_URLS)
        check(set(links) <= set(kept_all), f"[{code}] asked for, the comparison pages are kept")
        extra = sum(sent_bytes(base, url, code) for url in links)
        told = int(tab.evaluate("document.getElementById('offline-compared').getAttribute('data-bytes')"))
        check(abs(told - extra) <= extra * 0.02, f"[{code}] and the card says their size: {told} B ({extra} B fetched here)")
        tab.open(base + f"/favorites?lang={code}", "!!document.getElementById('saved-size') && !document.getElementById('saved-size').hidden")
        line = tab.evaluate("document.getElementById('saved-size').textContent")
        total = int(tab.evaluate("document.getElementById('saved-size').getAttribute('data-bytes')"))
        check(line.startswith(lookup(code, "web.savedSize").split("{0}")[0]) and total >= by_hand + extra
              and tab.evaluate("!!document.querySelector('#favorites .size')"),
              f"[{code}] the favorites page says what is saved: {line!r}")
        tab.screenshot(os.path.join(shots, f"favorites-size.{code}.png"), full=False)
        figures[code] = (len(kept), by_hand, len(links), extra, ask["estimate"])
        tab.open(base + card + f"?lang={code}", "!document.getElementById('favorite').hidden")
        tab.evaluate("document.getElementById('favorite').click()")
        tab.wait_for(f"{KEPT_URLS}.then(k => k.length === 0)", f"[{code}] the unfavorited herbicide let go")
    for code, (pages, kept, count, extra, estimate) in figures.items():
        print(f"favorite {HERBICIDE} [{code}]: {pages} pages, {kept} B kept; offered {count} comparison pages,"
              f" estimated {estimate} B, {extra} B when asked")


def offline_as_expected(tools, tab, base, lookup, shots):
    """Offline in each language: the lists saved with a favorite, never opened; the saved-copy date
    as the page's language writes it (never the browser's "2026 M11 28"); the favorite in the
    language chosen last, after it was kept in another; search as you type over the saved
    pages, saying so; and, the network back, the live page in place of the saved copy without a
    reload by the person."""
    card = "/product/" + FAVORITE
    for code, before in (("kk", "en"), ("ru", "kk"), ("en", "ru")):
        forget_saved(tab)
        tab.open(base + card + f"?lang={before}", "!!document.getElementById('product') && !document.getElementById('favorite').hidden")
        tab.evaluate("document.getElementById('favorite').click()")
        tab.wait_for("!!document.getElementById('offline-kept')", f"[{before}] the favorite kept")
        tab.open(base + f"/?lang={code}", "!!document.getElementById('q')")
        wait_quietly(tab, f"""caches.open('agro-favorites').then(c => c.match({json.dumps(card)})).then(r => r ? r.text() : '')
          .then(t => t.includes('<html lang="{code}"'))""", f"[{code}] the favorite fetched again in the language chosen")
        set_offline(tools, tab, True)
        for path in ("/regions", "/products", "/news"):
            tab.open(base + path)
            shown = tab.evaluate("[document.querySelector('main h1').textContent, document.getElementById('saved').hidden, document.documentElement.lang]")
            check(shown[0] != lookup(code, "web.offlineTitle") and not shown[1] and shown[2] == code,
                  f"[{code}] offline, the list {path} saved with the favorite opens, never opened before: {shown}")
        stamp = tab.evaluate("document.getElementById('saved-at').textContent").strip()
        pattern = re.escape(lookup(code, "date.numeric")).replace(r"\{0\}", r"\d{4}").replace(r"\{1\}", r"\d{2}").replace(r"\{2\}", r"\d{2}")
        check(re.fullmatch(pattern + r" \d{2}:\d{2}", stamp) is not None, f"[{code}] the saved copy's date as the language writes it: {stamp!r}")
        tab.open(base + card, "!!document.getElementById('product')")
        check(tab.evaluate("document.documentElement.lang") == code and not tab.evaluate("document.getElementById('saved').hidden"),
              f"[{code}] offline, the favorite opens in the language chosen last, not in {before}")
        word = tab.evaluate("document.querySelector('#product h1').textContent").split()[0].lower()
        tab.open(base + f"/?lang={code}", "!!document.getElementById('q')")
        tab.evaluate("document.getElementById('q').focus()")
        tab.call("Input.insertText", text=word)
        tab.wait_for(f"document.getElementById('results').getAttribute('data-query') === {json.dumps(word)}"
                     " && document.getElementById('results').getAttribute('data-offline') === 'true'", f"[{code}] offline results as one types")
        note = tab.evaluate("[document.getElementById('offline-search').hidden, document.getElementById('offline-search').textContent]")
        hits = tab.evaluate("Array.from(document.querySelectorAll('#results a')).map(a => a.getAttribute('href'))")
        check(not note[0] and note[1].startswith(lookup(code, "web.offlineSearch").split("{0}")[0]) and card in hits,
              f"[{code}] offline, search as you type says so and finds the saved card: {note[1]!r} {hits[:4]}")
        tab.screenshot(os.path.join(shots, f"offline-search.{code}.png"), full=False)
        check(not tab.evaluate("document.getElementById('saved').hidden"), f"[{code}] a saved copy is on screen")
        set_offline(tools, tab, False)
        wait_quietly(tab, "document.readyState === 'complete' && !!document.getElementById('saved') && document.getElementById('saved').hidden",
                     f"[{code}] the live page in place of the saved copy")
        live = tab.evaluate("[new URL(location.href).searchParams.get('q'), document.querySelectorAll('#results li').length,"
                            " document.getElementById('results').getAttribute('data-offline')]")
        check(live[0] == word and live[1] > 0 and live[2] is None,
              f"[{code}] the network back, the live page replaced the saved copy without a reload by the person,"
              f" with the server's results for what was typed: {live}")
    forget_saved(tab)


def long_card(tab, swiss, catalog, lookup, shots):
    """The product of the Swiss register with the most uses (85): the first screen says how many
    uses on how many crops (counted here in the catalog file), a jump list leads to each crop's
    group, every use is there, and no condition or pest line repeats under each use."""
    import sqlite3
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True)
    product, count = db.execute("SELECT product_id, COUNT(*) FROM uses GROUP BY product_id ORDER BY 2 DESC, 1 LIMIT 1").fetchone()
    crops = db.execute("SELECT COUNT(DISTINCT uc.culture_id) FROM use_cultures uc JOIN uses u ON u.id = uc.use_id"
                       " WHERE u.product_id = ?", (product,)).fetchone()[0]
    db.close()
    for code in LANGUAGES:
        tab.open(swiss + f"/product/{urllib.parse.quote(product)}?lang={code}", "!!document.getElementById('product')")
        summary = lookup(code, "web.cardUsesSummary").replace("{0}", plural(lookup, code, "web.cardUses", count)) \
            .replace("{1}", plural(lookup, code, "web.cardCrops", crops))
        first = tab.evaluate(f"""Array.from(document.querySelectorAll('#product *')).some(e => e.textContent.trim() === {json.dumps(summary)}
          && e.getBoundingClientRect().bottom <= 780)""")
        check(first, f"[{code}] the first screen of {product} says {summary!r}")
        card = tab.evaluate(r"""(() => {
          const sections = Array.from(document.querySelectorAll('#product section.uses'));
          const jumps = Array.from(document.querySelectorAll('#product nav a[href^="#"]')).map(a => a.getAttribute('href').slice(1));
          const nav = document.querySelector('#product nav');
          // A group whose every use repeats a condition, rather than saying it once at its head.
          const repeated = sections.filter(s => { const uses = Array.from(s.querySelectorAll('ul.uses > li')).map(li =>
            new Set(Array.from(li.querySelectorAll('p')).map(p => p.textContent.trim()).filter(x => x.startsWith('!'))));
            return uses.length > 1 && Array.from(uses[0]).some(x => uses.every(u => u.has(x))); }).length;
          const conditions = {}, pests = {};
          for (const p of document.querySelectorAll('#product p')) {
            const t = p.textContent.trim();
            if (t.startsWith('!')) conditions[t] = (conditions[t] || 0) + 1;
            if (p.classList.contains('targets')) pests[t] = (pests[t] || 0) + 1; }
          return {sections: sections.map(s => s.id), jumps, uses: sections.reduce((n, s) => n + s.querySelectorAll('ul.uses > li').length, 0),
            navFirst: !!nav && sections.length > 0 && nav.getBoundingClientRect().top < sections[0].getBoundingClientRect().top,
            repeated, condition: Math.max(0, ...Object.values(conditions)), pest: Math.max(0, ...Object.values(pests)),
            height: document.documentElement.scrollHeight}; })()""")
        check(card["uses"] == count, f"[{code}] all {count} uses are on the card ({card['uses']})")
        check(card["navFirst"] and card["jumps"] == card["sections"] and len(card["jumps"]) > 1,
              f"[{code}] a jump list above the uses leads to each of the {len(card['sections'])} crop groups")
        check(card["repeated"] == 0 and card["condition"] < count and card["pest"] == 1,
              f"[{code}] no condition repeated under every use of a group or of the card (at most {card['condition']} of {count}),"
              f" each pest line once; the card is {card['height']} px tall")
        tab.screenshot(os.path.join(shots, f"long-card.{code}.png"), full=False)
    return product


def slow_link(tools, pages):
    """First visits on a throttled link (400 ms round trip, 50 KB/s), each in a fresh browser
    context (no cache, no worker): time to the first contentful paint and bytes transferred."""
    figures = []
    for label, url in pages:
        context = tools.call("Target.createBrowserContext")["browserContextId"]
        target = tools.call("Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
        try:
            tab = Tab(tools, target)
            tab.call("Page.enable")
            tab.call("Network.enable")
            tab.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=780, deviceScaleFactor=1, mobile=True)
            tab.call("Network.emulateNetworkConditions", offline=False, latency=400,
                     downloadThroughput=50 * 1024, uploadThroughput=50 * 1024)
            tab.open(url, "performance.getEntriesByName('first-contentful-paint').length > 0", what=f"{label} on the slow link")
            tab.wait_for("performance.getEntriesByType('navigation')[0].loadEventEnd > 0", f"{label} loaded")
            seen = tab.evaluate("""(() => { const nav = performance.getEntriesByType('navigation')[0];
              const entries = [nav].concat(performance.getEntriesByType('resource'));
              return {paint: performance.getEntriesByName('first-contentful-paint')[0].startTime,
                bytes: entries.reduce((s, e) => s + (e.transferSize || 0), 0), files: entries.length}; })()""")
        finally:
            tools.call("Target.closeTarget", targetId=target)
            tools.call("Target.disposeBrowserContext", browserContextId=context)
        check(seen["paint"] > 0 and seen["bytes"] > 0, f"slow link, first visit, {label}: first paint {seen['paint'] / 1000:.2f} s,"
              f" {seen['bytes'] / 1024:.1f} KB in {seen['files']} files")
        figures.append((label, seen))
    return figures


# --- decisions: the uses page against `agro uses`, a plan checked, a tank computed -----------

def cli(*arguments):
    """The agro CLI on the same catalog (its exit status is part of the answer)."""
    command = [os.environ["AGRO_CLI"], "--catalog", os.environ["AGRO_CATALOG"]] + list(arguments)
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    return done.returncode, done.stdout


def dashes(text):
    return text.replace("\u2013", "-")


USE_ROWS = r"""Array.from(document.querySelectorAll('li.use-row')).map(row => {
  const fact = name => { for (const d of row.querySelectorAll('dl.use-facts > div'))
    if (d.querySelector('dt').textContent.trim() === name) return d.querySelector('dd').textContent.trim(); return ''; };
  const expired = row.querySelector('.expired');
  return {product: row.querySelector('.targets a').textContent.trim(), href: row.querySelector('.targets a').getAttribute('href'),
    registration: (row.querySelector('.reg') || {textContent: ''}).textContent.trim(),
    ingredients: Array.from(row.querySelectorAll('p.small a')).map(a => [a.textContent.trim(),
      (a.nextElementSibling && a.nextElementSibling.classList.contains('group')) ? a.nextElementSibling.textContent.trim() : '?']),
    dose: fact(T.dose), water: fact(T.water), phi: fact(T.phi), applications: fact(T.applications),
    interval: fact(T.interval), bbch: fact(T.bbch), area: fact(T.area), expired: expired ? expired.textContent.trim() : ''};
})"""


def uses_against_cli(tab, base, lookup, pairs):
    """The uses page shows the rows `agro uses --format csv` prints (the table's columns, worded
    in the interface language), in the same order, for the same pest and culture."""
    compared, expired, first = 0, 0, None
    for culture, pest in pairs:
        for code in LANGUAGES:
            status, out = cli("--lang", code, "uses", "--pest", pest, "--culture", culture, "--format", "csv", "--all")
            check(status == 0, f"agro uses --pest {pest} --culture {culture} --lang {code} answers")
            table = list(csv.reader(io.StringIO(out)))
            # A culture with members has an 11th column after the product: the member a row is on.
            rows = [row[:1] + row[2:] for row in table[1:]] if table and len(table[0]) == 11 else table[1:]
            names = {key: lookup(code, "web." + key) for key in ("dose", "water", "phi", "applications", "interval", "bbch", "area")}
            tab.open(with_lang(f"{base}/uses?culture={urllib.parse.quote(culture)}&pest={urllib.parse.quote(pest)}", code))
            page = tab.evaluate("(() => { const T = " + json.dumps(names) + "; return " + USE_ROWS + "; })()")
            check(len(page) == len(rows), f"uses of {pest} on {culture} [{code}]: {len(page)} rows on the page, {len(rows)} from agro uses")
            for web, row in zip(page, rows):
                product, registration, ingredients, dose, water, phi, counts, bbch, area, mark = row
                maximum, _, interval = counts.partition(" / ")
                listed = [re.match(r"(.*) \[(.*)\]$", part).groups() for part in ingredients.split(" + ")] if ingredients else []
                wanted = {"product": product, "registration": registration, "dose": dose, "water": water,
                          "interval": interval, "bbch": dashes(bbch), "area": area}
                seen = {key: web[key] for key in wanted}
                # Both write the language's range sign (an en dash in ru/kk); compared without it.
                seen["bbch"] = dashes(seen["bbch"])
                same = (seen == wanted and [tuple(i) for i in web["ingredients"]] == listed
                        and re.findall(r"\d+", web["phi"]) == re.findall(r"\d+", phi)
                        and re.findall(r"\d+", web["applications"]) == re.findall(r"\d+", maximum)
                        # Marked expired on both (the CLI's short mark, the page's with the date).
                        and bool(mark) == bool(web["expired"]))
                check(same, f"[{code}] {product}: the page reads as agro uses" + ("" if same else f": {web} vs {row}"))
                compared += 1
                expired += bool(mark)
                if first is None and not mark and dose.endswith(" l/ha") and code == "en":
                    first = (web["href"].rsplit("/", 1)[-1], float(dose.split()[0].split("-")[0]))
    check(compared > 0 and expired > 0, f"{compared} rows compared with agro uses, {expired} of them expired and marked")
    return first


def plan_checked(tab, base):
    """A plan file uploaded on the plan page: the findings per application and for the season
    are those `agro plan check FILE --format json` reports."""
    plan = os.path.join(ROOT, "Database", "examples", "winter-wheat-kz-fails.json")
    _, out = cli("--lang", "en", "plan", "check", plan, "--format", "json")
    report = json.loads(out)
    tab.open(base + "/plan?lang=en", "!!document.querySelector('input[type=file]')")
    root = tab.call("DOM.getDocument")["root"]["nodeId"]
    node = tab.call("DOM.querySelector", nodeId=root, selector="form.plan input[type=file]")["nodeId"]
    tab.call("DOM.setFileInputFiles", files=[plan], nodeId=node)
    tab.evaluate("window.agroOld = true; document.querySelector('form.plan button[type=submit]').click()")
    tab.loaded("!!document.getElementById('report')", "the plan's report")
    shown = tab.evaluate("""(() => { const text = li => { const c = li.cloneNode(true);
        c.querySelectorAll('.mark, .rule, small').forEach(e => e.remove()); return c.textContent.trim(); };
      return {applications: Array.from(document.querySelectorAll('ol.applications > li')).map(a => Array.from(a.querySelectorAll('li.finding')).map(text)),
              season: Array.from(document.querySelectorAll('#report > ul.findings > li.finding')).map(text)}; })()""")
    count = len(shown["applications"])
    wanted = [[f["message"] for f in report["findings"] if f["application"] == n] for n in range(1, count + 1)]
    season = [f["message"] for f in report["findings"] if f["application"] is None]
    check(count > 1 and shown["applications"] == wanted, f"the uploaded plan's {count} applications carry the findings of agro plan check")
    check(shown["season"] == season, f"and the season's {len(season)} findings")


def tank_computed(tab, base, product, dose):
    """The tank form filled in as a person would: loads and amounts as worked out by hand."""
    area, water, size = 25.0, 200.0, 2000.0
    tab.open(base + "/tank?lang=en", "!!document.querySelector('form.tank')")
    fill = {"input[name=product]": product, "input[name=dose]": f"{dose:g}", "input[name=area]": f"{area:g}",
            "input[name=water]": f"{water:g}", "input[name=tank]": f"{size:g}"}
    for selector, value in fill.items():
        tab.evaluate(f"document.querySelector('form.tank {selector}').value = {json.dumps(value)}")
    tab.evaluate("document.querySelector('form.tank select[name=unit]').value = 'l/ha'")
    tab.evaluate("window.agroOld = true; document.querySelector('form.tank button[type=submit]').click()")
    tab.loaded("!!document.getElementById('result')", "the tank's result")
    # The first product's amounts: per full load, last load, total (as labelled facts, or a table's row).
    cells = tab.evaluate("""(() => { const facts = document.querySelector('#result dl.use-facts');
      const cells = facts ? facts.querySelectorAll('dd') : document.querySelectorAll('#result tbody tr:first-child td');
      return Array.from(cells).map(c => c.textContent.trim()); })()""")
    per_hectare_load = size / water                      # ha one full tank covers
    full = int(area // per_hectare_load)
    last = area - full * per_hectare_load
    expected = [f"{dose * per_hectare_load:g} l", f"{dose * last:g} l", f"{dose * area:g} l"]
    check(cells == expected, f"the tank for {area:g} ha at {water:g} l/ha, {size:g} l: {cells} (by hand {expected})")


# --- the walk ------------------------------------------------------------------------------

# A field's value, its message and how far below the field the message starts.
FIELD = r"""(id => { const f = document.getElementById(id), e = document.getElementById(id + '-error');
  return {value: f ? f.value : null, message: e ? e.textContent.trim() : null,
          gap: f && e ? e.getBoundingClientRect().top - f.getBoundingClientRect().bottom : null,
          links: e ? Array.from(e.querySelectorAll('a')).map(a => a.getAttribute('href')) : []}; })"""
MACHINE_WORDS = re.compile(r"--(tank|dose|area|water|product|unit)\b|\b(tank|dose|area|water|product|unit|pests\d?)=|line \d|строка \d|\d-жол")


def forms_in_each_language(tab, base, lookup):
    """The tank and the plan's short form at 360 px in kk, ru and en, filled in as a person
    would: what was typed stays; a mistake is marked just below its field with the field's
    label in the page's language; thousands written with a space are
    read; a pest typed by a name several share offers them as links, and following one checks
    the plan; no command-line flag, query parameter or line of a file anywhere on the page."""
    names = {"ru": "септориоз", "kk": "септориоз", "en": "septoria"}
    for code in LANGUAGES:
        dose_label = lookup(code, "web.dose")
        tab.open(base + f"/tank?lang={code}", "!!document.querySelector('form.tank')")
        tab.evaluate("""(() => { const p = document.querySelectorAll('input[name=product]'), d = document.querySelectorAll('input[name=dose]');
          p[0].value = 'tebuconazole-250-ec'; d[0].value = '0,75'; p[1].value = 'tribenuron-750-wg'; d[1].value = '2о';
          document.querySelectorAll('select[name=unit]')[1].value = 'g/ha';
          document.querySelector('input[name=area]').value = '100'; document.querySelector('input[name=water]').value = '200';
          document.querySelector('input[name=tank]').value = '2\u00a0000'; window.agroOld = true;
          document.querySelector('form.tank button[type=submit]').click(); })()""")
        tab.loaded("!!document.querySelector('form.tank')", "the tank form answered")
        dose = tab.evaluate(FIELD + "('f-dose2')")
        size = tab.evaluate(FIELD + "('f-tank')")
        text = tab.evaluate("document.body.innerText")
        check(dose["value"] == "2о" and (dose["message"] or "").startswith(dose_label + ":") and "2о" in dose["message"]
              and 0 <= dose["gap"] < 24 and size["value"] == "2\u00a0000" and size["message"] is None
              and not MACHINE_WORDS.search(text) and not tab.evaluate("!!document.getElementById('result')"),
              f"[{code}] tank: the second row's dose kept and marked below it ({dose}), 2 000 read ({size}), no flag")
        tab.open(base + f"/plan?lang={code}", "!!document.querySelector('form.plan')")
        tab.evaluate("""(() => { const f = document.querySelector('form.plan');
          f.culture.value = 'winter-wheat'; f.date1.value = '2026-05-20'; f.bbch1.value = '37';
          f.product1.value = 'tebuconazole-250-ec'; f.dose1.value = '0,5о'; f.pests1.value = '""" + names[code] + """';
          window.agroOld = true; f.querySelector('button[type=submit]').click(); })()""")
        tab.loaded("!!document.querySelector('form.plan')", "the plan form answered")
        dose = tab.evaluate(FIELD + "('f-dose1')")
        pests = tab.evaluate(FIELD + "('f-pests1')")
        culture = tab.evaluate("document.getElementById('f-culture').value")
        text = tab.evaluate("document.body.innerText")
        check(dose["value"] == "0,5о" and (dose["message"] or "").startswith(dose_label + ":") and 0 <= dose["gap"] < 24
              and culture == "winter-wheat" and pests["value"] == names[code] and len(pests["links"]) > 1
              and not MACHINE_WORDS.search(text),
              f"[{code}] plan: the form kept ({culture}, {dose['value']}), the dose marked below it ({dose['message']}),"
              f" the pest's {len(pests['links'])} choices as links, no flag or line")
        chosen = next((link for link in pests["links"] if "zymoseptoria-tritici" in link), None)
        check(chosen is not None, f"[{code}] plan: septoria of wheat leaves among the choices")
        if chosen:
            # The dose mended, then the choice followed: the plan is checked with both.
            tab.open(base + chosen.replace("dose1=0%2C5%D0%BE", "dose1=0%2C5").replace("dose1=0,5%D0%BE", "dose1=0,5") + f"&lang={code}",
                     "!!document.querySelector('form.plan')")
            shown = tab.evaluate("[!!document.getElementById('report'), document.getElementById('f-pests1').value]")
            check(shown == [True, "zymoseptoria-tritici"],
                  f"[{code}] plan: the chosen pest's link fills the form with it ({shown})")


def weather_in_kazakh(base):
    """The stand-in's answers (Manila's "moderate rain", code 501; London's rainy forecast, every
    slot to avoid) read in Kazakh: OpenWeatherMap speaks none, agro words the code."""
    status, _, body = fetch(base + "/weather?at=51.18,71.45&spray=1&lang=kk")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body.decode()))
    check(status == 200 and " Орташа жаңбыр " in text and "moderate rain" not in text.lower(),
          "the weather's condition in Kazakh: Орташа жаңбыр")
    check("Болжамның бірде-бір аралығы бүркуге жарамайды." in text, "no spray window, said as a sentence in Kazakh")


def kazakh_search_and_expired_favorite(tab, base):
    """In Kazakh, the expired Propiconazole 250 g/L EC (KZ-DEMO-0025, expired 2025-06-30 in the
    demo catalog) is marked, with its date as Kazakh writes it, where it is found as one types
    (its kind and category in Kazakh, not the API's codes) and on the favorites page."""
    mark = "тіркеу мерзімі 30.06.2025 өтті"
    tab.open(base + "/?lang=kk", "!!document.getElementById('q')")
    tab.evaluate("document.getElementById('q').focus()")
    tab.call("Input.insertText", text="пропиконазол")
    tab.wait_for("document.getElementById('results').getAttribute('data-query') === 'пропиконазол'", "Kazakh results as one types")
    rows = tab.evaluate("Array.from(document.querySelectorAll('#results li')).map(li => li.textContent.replace(/\\s+/g, ' ').trim())")
    hit = next((row for row in rows if row.startswith("Пропиконазол 250 г/л КЭ " + mark)), None)
    check(hit == f"Пропиконазол 250 г/л КЭ {mark} препарат фунгицид", f"as one types in Kazakh, the expired product reads: {rows}")
    check(not any("fungicide" in row for row in rows), f"no category code among the Kazakh hits: {rows}")
    tab.evaluate("localStorage.setItem('agro.favorites', JSON.stringify(['propiconazole-250-ec']))")
    tab.open(base + "/favorites?lang=kk", "!!document.querySelector('#favorites .expired')")
    row = tab.evaluate("document.querySelector('#favorites li').textContent.replace(/\\s+/g, ' ').trim()")
    check(row == f"Пропиконазол 250 г/л КЭ {mark} KZ-DEMO-0025", f"the favorites page marks the expired favorite: {row!r}")
    tab.evaluate("localStorage.setItem('agro.favorites', '[]')")


def search_and_favorites(tab, base, lookup):
    """Search as one types, a pest's card, a product's card, a favorite; then without script."""
    tab.open(base + "/?lang=en", "!!document.getElementById('q')")
    check(tab.evaluate("document.title").startswith("Search"), "the search page loads")
    tab.evaluate("document.getElementById('q').focus()")
    for character in "septoria":
        tab.call("Input.insertText", text=character)
        time.sleep(0.03)
    tab.wait_for("document.getElementById('results').getAttribute('data-query') === 'septoria'"
                 " && document.querySelectorAll('#results li').length > 0", "results as one types")
    check(tab.evaluate("location.search") == "?lang=en", "the results came without leaving the page")
    hits = tab.evaluate("Array.from(document.querySelectorAll('#results a')).map(a => a.textContent)")
    check(any("eptoria" in hit for hit in hits), f"the pest is among the hits: {hits[:5]}")
    status = tab.evaluate("(() => { const s = document.getElementById('results-status');"
                          " return [s.getAttribute('aria-live') || s.getAttribute('role'), s.textContent]; })()")
    total = tab.evaluate("fetch('/api/v1/search?q=septoria&lang=en').then(r => r.json()).then(p => p.total)")
    check(status[0] in ("polite", "status") and status[1] == lookup("en", "web.resultsCount").replace("{0}", str(total)),
          f"the count of results is announced: {status[1]!r}")
    pests = tab.evaluate("Array.from(document.querySelectorAll('#results a[href^=\"/pest/\"]')).map(a => a.textContent)")
    check(len(pests) > 0, f"pests are among the hits: {pests}")

    tab.evaluate("document.querySelector('#results a[href^=\"/pest/\"]').click()")
    tab.wait_for("location.pathname.startsWith('/pest/') && document.readyState === 'complete'"
                 " && document.querySelectorAll('main a[href^=\"/product/\"]').length > 0", "the pest card with products")
    check(tab.evaluate("document.querySelector('h1').textContent") == pests[0], f"the pest card: {pests[0]}")
    tab.evaluate("document.querySelector('main a[href^=\"/product/\"]').click()")
    tab.wait_for("location.pathname.startsWith('/product/') && document.readyState === 'complete'"
                 " && !!document.getElementById('product')", "the product card")
    name = tab.evaluate("document.querySelector('#product h1').textContent")
    check(bool(name), f"the card shows the product: {name}")
    check(tab.evaluate("document.querySelectorAll('section.uses').length > 0"), "the card lists the uses by culture")

    check(not tab.evaluate("document.getElementById('favorite').hidden"), "the favorite button is shown")
    tab.evaluate("document.getElementById('favorite').click()")
    product_id = tab.evaluate("document.getElementById('product').getAttribute('data-product-id')")
    stored = json.loads(tab.evaluate("localStorage.getItem('agro.favorites')") or "[]")
    check(stored == [product_id], f"the favorite is kept by id: {stored}")
    tab.open(base + "/favorites", "document.querySelectorAll('#favorites li').length === 1")
    tab.wait_for("document.querySelector('#favorites a').textContent !== " + json.dumps(product_id), "the favorite's name")
    check(tab.evaluate("document.querySelector('#favorites a').textContent") == name, "the favorites page names it")
    scripts = tab.evaluate("Array.from(document.scripts).map(s => s.getAttribute('src'))")
    check(scripts == ["/static/app.js", "/static/offline.js"], f"the only scripts are agro's own files: {scripts}")
    tab.open(base + "/product/" + urllib.parse.quote(product_id), "!document.getElementById('favorite').hidden")
    tab.evaluate("document.getElementById('favorite').click()")
    check(json.loads(tab.evaluate("localStorage.getItem('agro.favorites')") or "[]") == [], "a second tap removes the favorite")
    kazakh_search_and_expired_favorite(tab, base)

    tab.call("Emulation.setScriptExecutionDisabled", value=True)
    tab.open(base + "/?lang=en&q=septoria")
    check(tab.evaluate("document.querySelectorAll('#results li a').length") > 0, "without JavaScript the server renders the results")
    check(tab.evaluate("document.getElementById('results').getAttribute('data-query')") is None,
          "and they are the server's (app.js did not run)")
    tab.open(base + "/product/" + urllib.parse.quote(product_id), "!!document.getElementById('favorite')")
    check(tab.evaluate("document.getElementById('favorite').hidden"), "without JavaScript no dead favorite button")
    tab.call("Emulation.setScriptExecutionDisabled", value=False)


# --- the field journal on the phone, offline first -------------------------------------------

def label_dose_range():
    """Tebuconazole 250 g/L EC's registered dose on winter wheat, from the catalog's sources
    (Database/content): the product's names and the use's [from, to] with its unit."""
    content = os.path.join(ROOT, "Database", "content")
    uses = json.load(open(os.path.join(content, "uses.json"), encoding="utf-8"))
    use = next(u for u in uses if u["product"] == "tebuconazole-250-ec" and "winter-wheat" in u["cultures"])
    products = json.load(open(os.path.join(content, "products.json"), encoding="utf-8"))
    products = products if isinstance(products, list) else products["products"]
    product = next(p for p in products if p["id"] == "tebuconazole-250-ec")
    return product["name"], use["dose"], use["unit"]


def written(value, code):
    """A number as the page's language writes it: a decimal comma in Russian and Kazakh."""
    text = f"{value:g}"
    return text.replace(".", ",") if code in ("ru", "kk") else text


FILL_RECORD = r"""((dose, bbch) => { const f = document.getElementById('journal-record');
  f.product1.value = 'tebuconazole-250-ec'; f.dose1.value = dose; f.unit1.value = 'l/ha';
  f.pests1.value = 'zymoseptoria-tritici'; f.bbch.value = bbch; f.water.value = '200'; f.operator.value = 'A. Serikbayev';
  f.wind.value = '2,5'; f.windSource.value = 'forecast'; return true; })"""


def journal_offline(tools, tab, base, lookup, shots, axe, raw_keys):
    """In kk, ru and en at 360 px: a field added on its page; a record written online with a
    dose above the label, its dose finding shown in the page's language as the record is saved
    (the expectation from the catalog's sources); the network off, a record written on the
    same form is kept in the browser and listed as not sent and not checked, and stays after a
    reload; the network back, it is sent (once, by the id the browser made) and its findings
    are shown on the field's page in that language; each journal page axe-clean, 24-px targets,
    no sideways scrolling at 360 px or with the text at 200 %, no raw key."""
    names, (low, high), unit = label_dose_range()
    dose = high * 1.5
    problems = []
    for code in LANGUAGES:
        rule = lookup(code, "finding.rule.dose")
        tab.open(base + f"/journal?lang={code}", "!!document.querySelector('form.journal-field')")
        field_name = f"Field {code} {int(time.time())}"
        tab.evaluate("""((name, area) => { const f = document.querySelector('form.journal-field');
          f.name.value = name; f.area.value = area; f.culture.value = 'winter-wheat';
          window.agroOld = true; f.querySelector('button[type=submit]').click(); })""" + f"({json.dumps(field_name)}, {json.dumps(written(12.5, code))})")
        tab.loaded("!!document.getElementById('field')", "the new field's page")
        field_url = tab.evaluate("location.href").split("?")[0]
        check(tab.evaluate("document.querySelector('main h1').textContent") == field_name, f"[{code}] the field {field_name} is added")

        # Online: written and saved; the server's findings on the record's page at once.
        tab.open(field_url + "/record", "!!document.getElementById('journal-record')")
        start = tab.evaluate("document.getElementById('f-start').value")
        check(start.startswith(time.strftime("%Y-%m-%d")), f"[{code}] the form's time defaults to now: {start}")
        check(tab.evaluate("document.getElementById('f-area').value") == written(12.5, code), f"[{code}] the area defaults to the field's")
        tab.evaluate(FILL_RECORD + f"({json.dumps(written(dose, code))}, '32')")
        tab.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=save]').click()")
        tab.loaded("location.pathname.startsWith('/journal/record/') && !!document.getElementById('record')", "the saved record")
        findings = tab.evaluate("Array.from(document.querySelectorAll('#findings li.finding.error')).map(li => li.textContent.replace(/\\s+/g, ' ').trim())")
        wanted = [f for f in findings if f"[{rule}]" in f and names[code] in f and written(dose, code) in f and written(low, code) in f]
        check(len(wanted) == 1, f"[{code}] online, the dose above the label ({written(dose, code)} {unit}, registered from"
              f" {written(low, code)} to {written(high, code)}) is found in the page's language: {findings}")
        record_url = tab.evaluate("location.href").split("?")[0]
        tab.open(field_url, "!!document.getElementById('records')")
        check(tab.evaluate("document.querySelectorAll('#records li.has-errors').length") == 1, f"[{code}] the field's list marks the record")
        tab.open(field_url + "/record", "!!document.getElementById('journal-record')")
        for url in (field_url, field_url + "/record"):
            tab.wait_for(f"caches.open('agro-pages').then(c => c.match({json.dumps(url)})).then(r => !!r)", f"{url} kept as seen")

        # Offline: the record is kept in the browser, listed as not sent and not checked.
        set_offline(tools, tab, True)
        tab.open(field_url + "/record", "!!document.getElementById('journal-record')")
        tab.evaluate(FILL_RECORD + f"({json.dumps(written(dose, code))}, '37')")
        kept_id = tab.evaluate("document.getElementById('journal-record').elements.id.value")
        tab.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=save]').click()")
        pending_text = lookup(code, "web.journalPending")
        ready = f"!!document.querySelector('#pending li') && document.querySelector('#pending li').textContent.includes({json.dumps(pending_text)})"
        tab.loaded(ready, "the kept record on the field's page")
        check(not tab.evaluate("document.getElementById('pending').hidden"), f"[{code}] offline, the record is listed: {pending_text}")
        tab.reload(ready, "the field's page reloaded offline")
        check(tab.evaluate("document.querySelectorAll('#pending li').length") == 1, f"[{code}] after a reload offline it is still there")
        tab.screenshot(os.path.join(shots, f"journal-offline.{code}.png"))

        # Back online: sent, checked by the server, its findings shown on the field's page.
        set_offline(tools, tab, False)
        sent_text = lookup(code, "web.journalSent")
        tab.wait_for(f"!!document.querySelector('#sent li') && document.querySelector('#sent li').textContent.includes({json.dumps(sent_text)})"
                     " && document.getElementById('pending').hidden", "the kept record sent", timeout=45)
        shown = tab.evaluate("Array.from(document.querySelectorAll('#sent li.finding.error')).map(li => li.textContent.trim())")
        check(any(names[code] in f and written(dose, code) in f and written(low, code) in f for f in shown),
              f"[{code}] online again, the record is sent and its dose finding shown in the page's language: {shown}")
        tab.screenshot(os.path.join(shots, f"journal-sent.{code}.png"))
        stored = tab.evaluate(f"fetch('/api/v1/journal?field=' + encodeURIComponent({json.dumps(field_name)})).then(r => r.json()).then(l => l.map(r => r.id))")
        check(sorted(i.lower() for i in stored) == sorted([record_url.rsplit("/", 1)[1].lower(), kept_id.lower()]),
              f"[{code}] both records stored, by the ids made on the server and in the browser: {stored}")
        # Sent again (an answer lost on the way): the same id, stored once.
        again = tab.evaluate("""new Promise(r => { const q = indexedDB.open('agro-journal', 1); q.onsuccess = () => r(q.result); })
          .then(db => new Promise(r => { const g = db.transaction('outbox').objectStore('outbox').get(%s);
            g.onsuccess = () => { db.close(); r(g.result); }; }))
          .then(e => fetch('/api/v1/journal', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(e.record)}))
          .then(r => r.json().then(j => [r.status, j.stored]))""" % json.dumps(kept_id))
        count = tab.evaluate(f"fetch('/api/v1/journal?field=' + encodeURIComponent({json.dumps(field_name)})).then(r => r.json()).then(l => l.length)")
        check(again == [200, False] and count == 2, f"[{code}] the kept record sent again is stored once: {again}, {count} records")
        for label, url in (("journal", base + "/journal"), ("journal field", field_url), ("journal record form", field_url + "/record"),
                           ("journal record", record_url)):
            inspect(tab, with_lang(url, code), code, label, axe, raw_keys, lookup, shots, problems)
    # Without JavaScript: the form posts to the server, which shows the findings before saving.
    tab.call("Emulation.setScriptExecutionDisabled", value=True)
    tab.open(field_url + "/record?lang=kk", "!!document.getElementById('journal-record')")
    tab.evaluate(FILL_RECORD + f"({json.dumps(written(dose, 'kk'))}, '32')")
    tab.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=check]').click()")
    tab.loaded("!!document.getElementById('checked')", "the findings before saving, without JavaScript")
    before = tab.evaluate("Array.from(document.querySelectorAll('#checked li.finding.error')).map(li => li.textContent.trim())")
    check(any(f"[{lookup('kk', 'finding.rule.dose')}]" in f and names["kk"] in f for f in before)
          and tab.evaluate("document.getElementById('f-dose1').value") == written(dose, "kk"),
          f"[kk] without JavaScript, Check shows the dose finding before saving and keeps the form: {before}")
    tab.call("Emulation.setScriptExecutionDisabled", value=False)
    check(problems == [], "the journal's pages in 3 languages at 360 px: axe 0 serious or critical, targets 24 px, no sideways"
          " scrolling at 360 px or with the text at 200 %, no raw key" + ("" if not problems else ":\n  " + "\n  ".join(problems[:40])))


# --- one journal for a farm: two phones and an inspector ---------------------------------------

def new_phone(tools):
    """A phone of its own: a browser context (its cookies, storage and service worker apart)
    with one tab at 360 px."""
    context = tools.call("Target.createBrowserContext")["browserContextId"]
    target = tools.call("Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
    tab = Tab(tools, target)
    tab.context = context
    for method in ("Page.enable", "Runtime.enable", "Network.enable"):
        tab.call(method)
    tab.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=780, deviceScaleFactor=1, mobile=True)
    return tab


def words(template, *values):
    """An interface string with its {0}, {1}... filled, as the program fills them."""
    for index, value in enumerate(values):
        template = template.replace("{%d}" % index, value)
    return template


def sign_in(tab, farm, url, code, login, password, lookup):
    """Opens `url` without a session: the sign-in page in the page's language, the login and
    the password typed key by key, and back at `url`."""
    tab.open(url, "!!document.getElementById('f-user')", f"the sign-in page in place of {url}")
    path = urllib.parse.urlsplit(url).path
    check(tab.evaluate("location.pathname") == "/sign-in" and tab.evaluate("document.querySelector('main h1').textContent")
          == lookup(code, "web.signIn"), f"[{code}] {path} without a session leads to the sign-in page, in the page's language")
    type_sign_in(tab, login, password, path)


def type_sign_in(tab, login, password, path):
    """On the sign-in page: the login and the password typed key by key, the button tapped,
    and the page at `path` once the server has let the person in."""
    for field, text in (("f-user", login), ("f-password", password)):
        tab.evaluate(f"document.getElementById('{field}').focus()")
        for character in text:
            tab.call("Input.insertText", text=character)
    tab.evaluate("window.agroOld = true; document.querySelector('main form button[type=submit]').click()")
    tab.loaded(f"location.pathname === {json.dumps(path)}", f"{path} after signing in")


def api(farm, method, path, cookie=None, body=None):
    """The farm's JSON API from outside the browser: (status, answer)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(farm + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None), response.headers.get("Set-Cookie")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), None


def session_cookie(tab, farm):
    """The phone's session cookie, as its browser keeps it."""
    cookies = tab.call("Network.getCookies", urls=[farm])["cookies"]
    found = [c for c in cookies if c["name"] == "agro_session"]
    return f"agro_session={found[0]['value']}" if found else None


def farm_journal(tools, farm, lookup, shots, axe, raw_keys):
    """One journal for a farm (agro web --farm-journal, accounts made with the CLI), as two
    phones (browser contexts) of two agronomists and an inspector's, at 360 px, in each
    language in turn (phone B reads in another language than A): A signs in on the sign-in
    page by typing, adds a field, writes a record offline, sees it "not sent, not checked yet"
    on the saved copy of the field's page, and online again sees it sent with its findings and
    the live page in place of the copy; B opens the field and the record, with the findings in
    B's language; A's session ended while a record waits offline: the record stays, the page
    says to sign in (in the page's language) and links the sign-in page, which leads back and
    the record is sent; Save on a form left open past the session's end keeps the record and
    leads through the sign-in page back to the field, where it is sent; the inspector's Save is
    refused in the page's language, the form keeps what was typed, the API shows nothing stored. The sign-in page and the farm's journal
    pages axe-clean, 24-px targets, no sideways scrolling at 360 px or with the text at 200 %,
    no raw key. Expected words from Localizable, doses from the catalog's sources."""
    accounts = [entry.split(":") for entry in os.environ["AGRO_FARM_ACCOUNTS"].split()]
    (anna, anna_pw, _), (boris, boris_pw, _), (ivan, ivan_pw, inspector_role) = accounts
    farm_name = os.environ.get("AGRO_FARM_NAME", "Kamenka")
    names, (low, high), unit = label_dose_range()
    dose = high * 1.5
    problems = []
    phone_a, phone_b, office = new_phone(tools), new_phone(tools), new_phone(tools)
    # An office session through the API, to see what is stored, apart from the phones.
    status, _, cookie = api(farm, "POST", "/api/v1/session", body={"user": ivan, "password": ivan_pw})
    check(status == 200 and cookie, f"the inspector signs in through the API: {status}")
    office_cookie = cookie.split(";")[0]

    # The sign-in page itself, before anyone signed in, in each language.
    for code in LANGUAGES:
        inspect(phone_a, farm + f"/sign-in?lang={code}", code, "farm sign-in", axe, raw_keys, lookup, shots, problems)
        menu = phone_a.evaluate("Array.from(document.querySelectorAll('nav.main a')).map(a => a.getAttribute('href'))")
        check("/sign-in" in menu and "/journal" in menu, f"[{code}] the menu links the journal and signing in: {menu}")

    for index, code in enumerate(LANGUAGES):
        other = LANGUAGES[(index + 1) % len(LANGUAGES)]
        if index == 0:
            sign_in(phone_a, farm, farm + f"/journal?lang={code}", code, anna, anna_pw, lookup)
        else:
            phone_a.open(farm + f"/journal?lang={code}", "!!document.querySelector('form.journal-field')")
        bar = phone_a.evaluate("(document.querySelector('#account p') || {}).textContent || ''").strip()
        wanted = words(lookup(code, "web.signedInAs"), anna, farm_name, lookup(code, "farm.role.agronomist"))
        check(bar.startswith(wanted) and bar.endswith(lookup(code, "web.signOut")),
              f"[{code}] the journal says who is signed in and offers to sign out: {bar!r}")
        field_name = f"Farm field {code} {int(time.time())}"
        phone_a.evaluate("""((name, area) => { const f = document.querySelector('form.journal-field');
          f.name.value = name; f.area.value = area; f.culture.value = 'winter-wheat';
          window.agroOld = true; f.querySelector('button[type=submit]').click(); })""" + f"({json.dumps(field_name)}, {json.dumps(written(40, code))})")
        phone_a.loaded("!!document.getElementById('field')", "the new field's page")
        field_url = phone_a.evaluate("location.href").split("?")[0]
        field_path = urllib.parse.urlsplit(field_url).path
        check(phone_a.evaluate("document.querySelector('main h1').textContent") == field_name, f"[{code}] phone A adds {field_name}")
        for url in (field_url + "/record", field_url, field_url + "/record"):
            phone_a.open(url)
        for url in (field_url, field_url + "/record"):
            phone_a.wait_for(f"caches.open('agro-pages').then(c => c.match({json.dumps(url)})).then(r => !!r)", f"{url} kept as seen")

        # Offline on phone A: the record kept in the browser, listed as not sent, not checked.
        set_offline(tools, phone_a, True, phone_a.context)
        phone_a.open(field_url + "/record", "!!document.getElementById('journal-record')")
        phone_a.evaluate(FILL_RECORD + f"({json.dumps(written(dose, code))}, '32')")
        kept_id = phone_a.evaluate("document.getElementById('journal-record').elements.id.value")
        # Again just before the save: the page's opening may have started the service worker
        # anew, as a target the first call did not see (a record once reached the farm so).
        set_offline(tools, phone_a, True, phone_a.context)
        phone_a.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=save]').click()")
        pending_text = lookup(code, "web.journalPending")
        ready = f"!!document.querySelector('#pending li') && document.querySelector('#pending li').textContent.includes({json.dumps(pending_text)})"
        phone_a.loaded(ready, "the kept record on the field's saved page", timeout=45)
        check(not phone_a.evaluate("document.getElementById('saved').hidden"), f"[{code}] offline, the field's page is the saved copy")
        reach = phone_a.evaluate("fetch('/api/v1/session').then(() => 'online', () => 'offline').then(r => [navigator.onLine, r])")
        check(reach == [False, "offline"], f"[{code}] and the phone is offline: {reach}")
        phone_a.screenshot(os.path.join(shots, f"farm-offline.{code}.png"))
        status, listed, _ = api(farm, "GET", "/api/v1/journal?field=" + urllib.parse.quote(field_name), office_cookie)
        check(status == 200 and listed == [], f"[{code}] while phone A is offline the farm has no record on the field: {listed}")

        # Online again: sent, its findings shown, and the live page in place of the copy.
        set_offline(tools, phone_a, False, phone_a.context)
        sent_text = lookup(code, "web.journalSent")
        phone_a.wait_for(f"!!document.querySelector('#sent li') && document.querySelector('#sent li').textContent.includes({json.dumps(sent_text)})"
                         " && document.getElementById('pending').hidden", "the kept record sent", timeout=45)
        shown = phone_a.evaluate("Array.from(document.querySelectorAll('#sent li.finding.error')).map(li => li.textContent.trim())")
        check(any(names[code] in f and written(dose, code) in f and written(low, code) in f for f in shown),
              f"[{code}] online again, phone A sees the record sent with its dose finding ({written(dose, code)} {unit},"
              f" registered {written(low, code)}-{written(high, code)}) in the page's language: {shown}")
        phone_a.wait_for("document.getElementById('saved').hidden && document.querySelectorAll('#records li').length === 1",
                         "the live field's page in place of the saved copy", timeout=20)
        check(phone_a.evaluate("document.querySelectorAll('#records li.has-errors a[href^=\"/journal/record/\"]').length") == 1,
              f"[{code}] without a reload, the saved copy gives way to the live page listing the record, marked")
        phone_a.screenshot(os.path.join(shots, f"farm-sent.{code}.png"))
        status, listed, _ = api(farm, "GET", "/api/v1/journal?field=" + urllib.parse.quote(field_name), office_cookie)
        check(status == 200 and [r["id"].lower() for r in listed] == [kept_id.lower()],
              f"[{code}] the farm has the record once, by the id phone A made: {[r.get('id') for r in listed or []]}")

        # Phone B, the other agronomist, in another language: the field and the record's findings.
        rule_b = lookup(other, "finding.rule.dose")
        if index == 0:
            sign_in(phone_b, farm, farm + f"/journal?lang={other}", other, boris, boris_pw, lookup)
        else:
            phone_b.open(farm + f"/journal?lang={other}", "!!document.getElementById('fields')")
        link = phone_b.evaluate(f"Array.from(document.querySelectorAll('#fields a')).filter(a => a.textContent === {json.dumps(field_name)}).map(a => a.getAttribute('href'))")
        check(link == [field_path], f"[{other}] phone B lists the field phone A added: {link}")
        phone_b.open(farm + field_path, "!!document.getElementById('records')")
        record_links = phone_b.evaluate("Array.from(document.querySelectorAll('#records li.has-errors a')).map(a => a.getAttribute('href'))")
        check(record_links == ["/journal/record/" + kept_id.lower()], f"[{other}] phone B sees the record phone A wrote offline, marked: {record_links}")
        phone_b.open(farm + record_links[0], "!!document.getElementById('record')")
        findings = phone_b.evaluate("Array.from(document.querySelectorAll('#findings li.finding.error')).map(li => li.textContent.replace(/\\s+/g, ' ').trim())")
        check(any(f"[{rule_b}]" in f and names[other] in f and written(dose, other) in f and written(low, other) in f for f in findings),
              f"[{other}] phone B reads the record's dose finding in its own language: {findings}")
        phone_b.screenshot(os.path.join(shots, f"farm-phone-b.{other}.png"))

        # Phone A's session ends while a record waits offline: kept, and the page says to sign in.
        set_offline(tools, phone_a, True, phone_a.context)
        phone_a.open(field_url + "/record", "!!document.getElementById('journal-record')")
        phone_a.evaluate(FILL_RECORD + f"({json.dumps(written(high, code))}, '37')")
        late_id = phone_a.evaluate("document.getElementById('journal-record').elements.id.value")
        set_offline(tools, phone_a, True, phone_a.context)
        phone_a.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=save]').click()")
        phone_a.loaded(ready, "the second kept record on the field's saved page", timeout=45)
        status = api(farm, "DELETE", "/api/v1/session", session_cookie(phone_a, farm))[0]
        check(status == 204, f"[{code}] phone A's session is ended on the server: {status}")
        set_offline(tools, phone_a, False, phone_a.context)
        phone_a.wait_for("!document.getElementById('sign-in-to-send').hidden", "the request to sign in", timeout=45)
        notice = phone_a.evaluate("document.getElementById('sign-in-to-send').textContent").strip()
        href = phone_a.evaluate("document.querySelector('#sign-in-to-send a').getAttribute('href')")
        check(notice == lookup(code, "web.journalSignInToSend") + " " + lookup(code, "web.signIn")
              and href == f"/sign-in?lang={code}&next=" + field_path,
              f"[{code}] the session ended: the page asks to sign in to send, in its language, linking {href}: {notice!r}")
        check(phone_a.evaluate("document.querySelectorAll('#pending li').length") == 1
              and pending_text in phone_a.evaluate("document.querySelector('#pending li').textContent"),
              f"[{code}] and the record stays kept, not sent")
        phone_a.screenshot(os.path.join(shots, f"farm-sign-in-to-send.{code}.png"))
        phone_a.evaluate("document.querySelector('#sign-in-to-send a').click()")
        phone_a.wait_for("location.pathname === '/sign-in' && !!document.getElementById('f-user')", "the sign-in page")
        type_sign_in(phone_a, anna, anna_pw, field_path)
        phone_a.wait_for("document.getElementById('pending').hidden && document.querySelectorAll('#sent > ul > li').length === 2",
                         "the kept record sent after signing in", timeout=45)
        status, listed, _ = api(farm, "GET", "/api/v1/journal?field=" + urllib.parse.quote(field_name), office_cookie)
        check(sorted(r["id"].lower() for r in listed) == sorted([kept_id.lower(), late_id.lower()]),
              f"[{code}] signed in again, the kept record is sent: {len(listed)} records on the field")

        # The session ends while the form is open, online: Save keeps the record on the phone, the
        # sign-in page comes next and leads back to the field, where the record is sent.
        phone_a.open(field_url + "/record", "!!document.getElementById('journal-record')")
        phone_a.evaluate(FILL_RECORD + f"({json.dumps(written(low, code))}, '39')")
        open_id = phone_a.evaluate("document.getElementById('journal-record').elements.id.value")
        status = api(farm, "DELETE", "/api/v1/session", session_cookie(phone_a, farm))[0]
        phone_a.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=save]').click()")
        phone_a.loaded("location.pathname === '/sign-in' && !!document.getElementById('f-user')", "the sign-in page after Save", timeout=45)
        state = phone_a.evaluate("""new Promise(r => { const q = indexedDB.open('agro-journal', 1); q.onsuccess = () => r(q.result); })
          .then(db => new Promise(r => { const g = db.transaction('outbox').objectStore('outbox').get(%s);
            g.onsuccess = () => { db.close(); r(g.result ? g.result.state : null); }; }))""" % json.dumps(open_id))
        check(status == 204 and state == "pending", f"[{code}] Save with the session ended keeps the record on the phone ({state}) and asks to sign in")
        type_sign_in(phone_a, anna, anna_pw, field_path)
        phone_a.wait_for("document.getElementById('pending').hidden && document.querySelectorAll('#sent > ul > li').length === 3",
                         "the record kept at Save sent after signing in", timeout=45)
        status, listed, _ = api(farm, "GET", "/api/v1/journal?field=" + urllib.parse.quote(field_name), office_cookie)
        check(sorted(r["id"].lower() for r in listed) == sorted([kept_id.lower(), late_id.lower(), open_id.lower()]),
              f"[{code}] signed in again, the record kept at Save is sent: {len(listed)} records on the field")

        # The inspector reads, and may not write: Save refused in the page's language, form kept.
        if index == 0:
            sign_in(office, farm, farm + f"/journal?lang={code}", code, ivan, ivan_pw, lookup)
        office.open(farm + field_path + f"/record?lang={code}", "!!document.getElementById('journal-record')")
        office.evaluate(FILL_RECORD + f"({json.dumps(written(dose, code))}, '39')")
        refused_id = office.evaluate("document.getElementById('journal-record').elements.id.value")
        office.evaluate("window.agroOld = true; document.querySelector('#journal-record button[value=save]').click()")
        office.loaded("!!document.getElementById('refused')", "the inspector's refusal")
        said = office.evaluate("document.getElementById('refused').textContent").strip()
        check(said == words(lookup(code, "web.journalNotAllowed"), lookup(code, "farm.role." + inspector_role)),
              f"[{code}] the inspector's Save is refused in the page's language: {said!r}")
        kept = office.evaluate("""(() => { const f = document.getElementById('journal-record');
          return [f.product1.value, f.dose1.value, f.pests1.value, f.bbch.value, f.operator.value, f.wind.value, f.elements.id.value]; })()""")
        check(kept == ["tebuconazole-250-ec", written(dose, code), "zymoseptoria-tritici", "39", "A. Serikbayev", "2,5", refused_id],
              f"[{code}] the form keeps what the inspector typed: {kept}")
        office.screenshot(os.path.join(shots, f"farm-inspector.{code}.png"))
        status, _, _ = api(farm, "GET", f"/api/v1/journal/{refused_id}", office_cookie)
        count = len(api(farm, "GET", "/api/v1/journal?field=" + urllib.parse.quote(field_name), office_cookie)[1])
        check(status == 404 and count == 3, f"[{code}] nothing of the inspector's is stored: {status}, {count} records on the field")

        record_url = farm + "/journal/record/" + kept_id.lower()
        for label, url in (("farm journal", farm + "/journal"), ("farm journal field", field_url),
                           ("farm journal record form", field_url + "/record"), ("farm journal record", record_url),
                           ("farm signed in", farm + "/sign-in")):
            inspect(phone_a, with_lang(url, code), code, label, axe, raw_keys, lookup, shots, problems)
        inspect(office, with_lang(field_url + "/record", code), code, "farm inspector form", axe, raw_keys, lookup, shots, problems)
    check(problems == [], "the sign-in page and the farm's journal pages in 3 languages at 360 px: axe 0 serious or critical,"
          " targets 24 px, no sideways scrolling at 360 px or with the text at 200 %, no raw key"
          + ("" if not problems else ":\n  " + "\n  ".join(problems[:40])))
    for tab in (phone_a, phone_b, office):
        tools.call("Target.disposeBrowserContext", browserContextId=tab.context)


def main():
    base, shots = sys.argv[1].rstrip("/"), sys.argv[2]
    started = time.time()
    os.makedirs(shots, exist_ok=True)
    tables, lookup = strings()
    raw_keys = raw_key_finder(tables["en"].keys())

    seen, pages, failures, raw = crawl(base, raw_keys)
    check(len(pages) > 20, f"the crawl from the home page reached {len(seen)} URLs ({len(pages)} pages)")
    check(failures == [], f"every internal link answers 200: {failures[:10]}")
    check(raw == {}, f"no crawled page shows a raw interface key: {dict(list(raw.items())[:5])}")

    kinds = {}
    for path in sorted(pages, key=lambda p: (len(p), p)):
        kinds.setdefault(kind_of(path), path)
    kinds.setdefault("/offline/*", "/offline/en")
    if os.environ.get("AGRO_BROWSER_WEATHER") == "1":
        kinds["/weather?at&spray"] = "/weather?at=51.18,71.45&spray=1"
    print(f"page kinds: {len(kinds)}: {sorted(kinds)}")

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        raise SystemExit("chromium not found")
    axe = axe_source()
    profile = tempfile.mkdtemp(prefix="agro-chromium-")
    arguments = [browser, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                 "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-port=0",
                 f"--user-data-dir={profile}", f"--window-size={WIDTH},780", "about:blank"]
    if os.geteuid() == 0:
        arguments.insert(1, "--no-sandbox")  # Chromium refuses to sandbox as root (CI containers).
    process = subprocess.Popen(arguments, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        endpoint = None
        deadline = time.time() + 60
        while time.time() < deadline and endpoint is None:
            line = process.stderr.readline()
            if not line and process.poll() is not None:
                raise SystemExit("chromium exited before listening")
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                endpoint = match.group(1)
        if endpoint is None:
            raise SystemExit("chromium did not start")
        tools = DevTools(endpoint)
        target = next(t for t in tools.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        tab = Tab(tools, target["targetId"])
        tab.call("Page.enable")
        tab.call("Runtime.enable")
        tab.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=780, deviceScaleFactor=1, mobile=True)

        problems = []
        # AGRO_BROWSER_PAGES=0 leaves the sweep out, to work on the later steps.
        for label, path in sorted(kinds.items()) if os.environ.get("AGRO_BROWSER_PAGES") != "0" else []:
            for code in LANGUAGES:
                inspect(tab, with_lang(base + path, code), code, label, axe, raw_keys, lookup, shots, problems)
        check(problems == [], f"{len(kinds)} kinds of page in {len(LANGUAGES)} languages at {WIDTH} px: no overflow, no raw key,"
              f" the menu in the page's language, axe 0 serious or critical, controls 24 px and 3:1,"
              f" tap targets 24 px, text at 200 % and zoom at 200 % with no sideways scrolling"
              + ("" if not problems else ":\n  " + "\n  ".join(problems[:40])))

        if os.environ.get("AGRO_BROWSER_WEATHER") == "1":
            weather_in_kazakh(base)

        pairs = []
        for path in sorted(pages):
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query))
            if path.startswith("/uses?") and query.keys() >= {"culture", "pest"} and (query["culture"], query["pest"]) not in pairs:
                pairs.append((query["culture"], query["pest"]))
        # A pair where an expired registration is offered (the catalog says which have expired), then two crawled.
        today = time.strftime("%Y-%m-%d")
        listed = json.loads(cli("products", "--all", "--format", "json")[1])["items"]
        gone = [item["id"] for item in listed if item.get("registrationExpiry", "9999") < today]
        check(len(gone) > 0, f"the catalog has expired registrations: {gone[:3]}")
        use = json.loads(cli("product", gone[0], "--format", "json")[1])["uses"][0]
        expired_pair = (use["cultures"][0]["id"], use["pests"][0]["pest"]["id"])
        tank = uses_against_cli(tab, base, lookup, [expired_pair] + [p for p in pairs if p != expired_pair][:2])
        plan_checked(tab, base)
        forms_in_each_language(tab, base, lookup)
        check(tank is not None, f"a product with a dose in l/ha for the tank: {tank}")
        tank_computed(tab, base, *tank)
        search_and_favorites(tab, base, lookup)
        offline_checks(tools, tab, base, lookup, shots)
        journal_offline(tools, tab, base, lookup, shots, axe, raw_keys)
        if os.environ.get("AGRO_FARM_URL"):
            farm_journal(tools, os.environ["AGRO_FARM_URL"].rstrip("/"), lookup, shots, axe, raw_keys)
        elif os.environ.get("CI") == "true":
            raise SystemExit("FAIL: AGRO_FARM_URL is not set: the farm's journal was not tested")
        favorite_cost(tab, base, lookup, shots)
        offline_as_expected(tools, tab, base, lookup, shots)
        # The Swiss register (run.sh imports it when the shared data is there): a long card.
        swiss = os.environ.get("AGRO_SWISS_URL", "").rstrip("/")
        slow = [("home", "/?lang={}"), ("uses page", "/uses?culture=winter-wheat&pest=zymoseptoria-tritici&lang={}")]
        slow = [(label, base + path) for label, path in slow]
        if swiss:
            product = long_card(tab, swiss, os.environ["AGRO_SWISS_CATALOG"], lookup, shots)
            problems = []
            for code in LANGUAGES:
                inspect(tab, f"{swiss}/product/{urllib.parse.quote(product)}?lang={code}", code, "Swiss card", axe, raw_keys,
                        lookup, shots, problems)
            check(problems == [], "the Swiss card in 3 languages at 360 px: no overflow, axe, tap targets, text at 200 %"
                  + ("" if not problems else ":\n  " + "\n  ".join(problems[:20])))
            slow.append(("Swiss product card", f"{swiss}/product/{urllib.parse.quote(product)}?lang={{}}"))
        elif os.environ.get("CI") == "true":
            raise SystemExit("FAIL: the Swiss register was not imported (AGRO_SWISS_URL unset)")
        for code in LANGUAGES:
            slow_link(tools, [(f"{label} [{code}]", url.format(code)) for label, url in slow])
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(profile, ignore_errors=True)

    if FAILED:
        raise SystemExit(f"{len(FAILED)} checks failed")
    print(f"browser test passed in {time.time() - started:.0f} s; screenshots in {shots}")


if __name__ == "__main__":
    main()
