#!/usr/bin/env python3
"""Drives headless Chromium through agro web over the DevTools protocol (standard library
only): loads the search page at phone width, types a pest, opens a product card from the
results, adds it to the favorites, and asserts on the DOM at each step. Saves a screenshot.

usage: browser_test.py BASE_URL SCREENSHOT.png
"""
import base64, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time, urllib.request


class DevTools:
    """A WebSocket client for one DevTools target (RFC 6455, client frames masked)."""

    def __init__(self, url):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=30)
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
        self.sock.sendall(bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise SystemExit("DevTools connection closed")
            data += chunk
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            message += payload
            if first & 0x80:
                return message.decode()

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            answer = json.loads(self._receive())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise SystemExit(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise SystemExit(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.1)
        raise SystemExit(f"FAIL: timed out waiting for {what}")


def check(condition, message):
    if not condition:
        raise SystemExit("FAIL: " + message)
    print("ok:", message)


def main():
    base, screenshot = sys.argv[1].rstrip("/"), sys.argv[2]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        raise SystemExit("chromium not found")
    profile = tempfile.mkdtemp(prefix="agro-chromium-")
    arguments = [browser, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                 "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-port=0",
                 f"--user-data-dir={profile}", "--window-size=360,780", "about:blank"]
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
        port = re.match(r"ws://[^:]+:(\d+)/", endpoint).group(1)
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        tools.call("Page.enable")
        tools.call("Runtime.enable")
        tools.call("Emulation.setDeviceMetricsOverride", width=360, height=780, deviceScaleFactor=2, mobile=True)

        # 1. The search page.
        tools.call("Page.navigate", url=base + "/?lang=en")
        tools.wait_for("document.readyState === 'complete' && !!document.getElementById('q')", "the search page")
        check(tools.evaluate("document.title").startswith("Search"), "the search page loads")
        check(tools.evaluate("document.documentElement.scrollWidth <= 360"), "nothing wider than a 360 px screen")

        # 2. Typing a pest: results appear as one types (app.js), without submitting the form.
        tools.evaluate("document.getElementById('q').focus()")
        for character in "septoria":
            tools.call("Input.insertText", text=character)
            time.sleep(0.03)
        tools.wait_for("document.getElementById('results').getAttribute('data-query') === 'septoria'"
                       " && document.querySelectorAll('#results li').length > 0", "results as one types")
        check(tools.evaluate("location.search") == "?lang=en", "the results came without leaving the page")
        hits = tools.evaluate("Array.from(document.querySelectorAll('#results a')).map(a => a.textContent)")
        check(any("eptoria" in hit for hit in hits), f"the pest is among the hits: {hits[:5]}")
        pests = tools.evaluate("Array.from(document.querySelectorAll('#results a[href^=\"/pest/\"]')).map(a => a.textContent)")
        check(len(pests) > 0, f"pests are among the hits: {pests}")

        # 3. The pest's card lists the products against it; opening one gives its card.
        tools.evaluate("document.querySelector('#results a[href^=\"/pest/\"]').click()")
        tools.wait_for("location.pathname.startsWith('/pest/') && document.readyState === 'complete'"
                       " && document.querySelectorAll('ul.items a[href^=\"/product/\"]').length > 0", "the pest card with products")
        check(tools.evaluate("document.querySelector('h1').textContent") == pests[0], f"the pest card: {pests[0]}")
        tools.evaluate("document.querySelector('ul.items a[href^=\"/product/\"]').click()")
        tools.wait_for("location.pathname.startsWith('/product/') && document.readyState === 'complete'"
                       " && !!document.getElementById('product')", "the product card")
        name = tools.evaluate("document.querySelector('#product h1').textContent")
        check(bool(name), f"the card shows the product: {name}")
        check(tools.evaluate("document.querySelectorAll('section.uses').length > 0"), "the card lists the uses by culture")
        check(tools.evaluate("document.documentElement.scrollWidth <= 360"), "the card fits a 360 px screen")

        # 4. Favorites: the button appears with JavaScript and keeps the id in localStorage.
        check(tools.evaluate("!document.getElementById('favorite').hidden"), "the favorite button is shown")
        tools.evaluate("document.getElementById('favorite').click()")
        product_id = tools.evaluate("document.getElementById('product').getAttribute('data-product-id')")
        stored = json.loads(tools.evaluate("localStorage.getItem('agro.favorites')") or "[]")
        check(stored == [product_id], f"the favorite is kept by id: {stored}")
        shot = tools.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        with open(screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        tools.call("Page.navigate", url=base + "/favorites")
        tools.wait_for("document.querySelectorAll('#favorites li').length === 1"
                       " && document.querySelector('#favorites a').textContent !== " + json.dumps(product_id),
                       "the favorites page")
        check(tools.evaluate("document.querySelector('#favorites a').textContent") == name, "the favorites page names it")
        dom = tools.evaluate("document.documentElement.outerHTML")
        check("<script src=\"/static/app.js\" defer=\"\"></script>" in dom, "the only script is agro's own file")

        # 5. Without JavaScript the pages still work: the server renders the results, and
        # the favorite button (which needs script) stays hidden.
        tools.call("Emulation.setScriptExecutionDisabled", value=True)
        tools.call("Page.navigate", url=base + "/?lang=en&q=septoria")
        tools.wait_for("document.readyState === 'complete' && location.search.includes('q=septoria')", "the search without script")
        check(tools.evaluate("document.querySelectorAll('#results li a').length") > 0,
              "without JavaScript the server renders the results")
        check(tools.evaluate("document.getElementById('results').getAttribute('data-query')") is None,
              "and they are the server's (app.js did not run)")
        tools.call("Page.navigate", url=base + "/product/" + product_id)
        tools.wait_for("document.readyState === 'complete' && !!document.getElementById('favorite')", "the card without script")
        check(tools.evaluate("document.getElementById('favorite').hidden"), "without JavaScript no dead favorite button")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(profile, ignore_errors=True)

    print("browser test passed; screenshot:", screenshot)


if __name__ == "__main__":
    main()
