#!/usr/bin/env python3
"""A loopback stand-in for OpenWeatherMap for the browser test: answers /data/2.5/weather and
/data/2.5/forecast with recorded answers from the shared fixtures (../shared/fixtures/owm), so
the weather pages show real conditions and spray windows. Prints "port N" once listening.

usage: owm_server.py FIXTURES_DIR
"""
import http.server, os, sys

folder = sys.argv[1]
ANSWERS = {
    "/data/2.5/weather": "current_weather_rain_gust_manila_metric.json",
    "/data/2.5/forecast": "forecast_5day_3h_london_full_list_rain.json",
}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        name = ANSWERS.get(self.path.split("?")[0])
        if name is None:
            self.send_error(404)
            return
        body = open(os.path.join(folder, name), "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("port", server.server_address[1], flush=True)
server.serve_forever()
