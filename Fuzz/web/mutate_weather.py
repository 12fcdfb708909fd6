#!/usr/bin/env python3
"""Feeds `agro web` mutated OpenWeatherMap answers and checks that it answers and stays up.

    Fuzz/web/mutate_weather.py AGRO_FULL OWM_FIXTURES [ROUNDS] [SEED]

For each round, a recorded current answer and forecast (OWM_FIXTURES) get some numbers, times
and offsets replaced by extremes or random values, or a field's type changed; a loopback
stand-in serves them to `agro web` (started here, on loopback), and the weather page and the
API are asked for a fresh place. Every request must be answered (any status but a 500 or a cut
connection), and the process must be alive at the end. Prints the count of rounds and failures.
"""
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Benchmarks", "web"))
from attacks import Server, Upstream  # noqa: E402

EXTREMES = [0, -1, 1e300, -1e300, 2**63 - 1, -(2**63), 57600, -64800, 1e-300, "x", None, [], {}]


def mutate(value, rng, rate):
    if isinstance(value, dict):
        return {k: mutate(v, rng, rate) for k, v in value.items()}
    if isinstance(value, list):
        return [mutate(v, rng, rate) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and rng.random() < rate:
        return rng.choice(EXTREMES + [rng.uniform(-1e6, 1e6)])
    return value


def main():
    agro, fixtures = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    current = json.load(open(os.path.join(fixtures, "current_weather_rain_gust_manila_metric.json")))
    forecast = json.load(open(os.path.join(fixtures, "forecast_5day_3h_london_full_list_rain.json")))
    state = {}
    upstream = Upstream(lambda path: state["forecast"] if "/forecast" in path else state["current"])
    server = Server(agro, None, ["--requests-per-client", "64", "--weather-per-client", "100000", "--weather-total",
                                 "100000", "--weather-per-client-daily", "1000000", "--weather-daily", "1000000"],
                    env={"AGRO_OPENWEATHER_URL": upstream.url, "OPENWEATHER_API_KEY": "fuzz"})
    failures = 0
    try:
        for index in range(rounds):
            state["current"] = mutate(current, rng, 0.2)
            state["forecast"] = mutate(forecast, rng, 0.05)
            # A fresh place each round, so that nothing comes from the cache.
            at = f"{-60 + (index % 120)},{(index * 7) % 170}"
            for path in [f"/weather?at={at}&spray=1&lang=kk", f"/api/v1/weather?at={at}&spray=true&forecast=true"]:
                status, _, _ = server.get(path, timeout=30)
                if status in (0, 500) or not server.alive():
                    failures += 1
                    print(f"round {index}: {path} -> {status}", file=sys.stderr)
            if not server.alive():
                break
    finally:
        alive = server.alive()
        server.stop()
        upstream.stop()
    print(f"mutated weather answers: {index + 1} rounds, {failures} failures, server {'up' if alive else 'DIED'}")
    return 1 if failures or not alive else 0


if __name__ == "__main__":
    time.sleep(0)
    sys.exit(main())
