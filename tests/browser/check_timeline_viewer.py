#!/usr/bin/python3
"""Open a `dcsim run --timeline` file in a real trace viewer and check what the viewer shows.

    /usr/bin/python3 tests/browser/check_timeline_viewer.py TIMELINE.json [--viewer DIR] [--screenshot PNG]

The viewer is speedscope (github.com/jlfwong/speedscope), a Chrome trace-event viewer that runs
offline: tools/browser_check.sh installs the version pinned in tests/browser/viewer/package.json
from the npm registry (test-only; nothing of it is committed or built into dcsim). Perfetto's UI
would need the network. The script serves speedscope's page and the timeline from 127.0.0.1 (the
page fetches the file by URL, as `#profileURL=` asks), opens it in headless Chromium (Debian's
chromium + chromium-driver, python3-selenium) and checks that:
  - the viewer imported the file: no "Something went wrong", and none of its import warnings
    (a slice ended when another was on top of its stack, or still open at the end): those mean
    the viewer read the slices' nesting differently from what the file says;
  - it shows one profile per thread with slices (speedscope reads only duration events: the jobs
    track and each training job's steps), named after the file's process and thread names;
  - on the first training job's profile, the "Sandwich" table gives compute, communication and
    bubble the self time the file's slices add up to (within speedscope's display rounding, 1%):
    the steps' children nest inside their steps as written.
It prints what the viewer shows (profiles, the sandwich rows it read) and can save a screenshot.

Exit codes: 0 passed, 1 a check failed, 2 bad arguments, 77 skipped: speedscope (run `npm ci` in
tests/browser/viewer, as tools/browser_check.sh does), chromium, chromedriver or selenium missing.
"""

import argparse
import functools
import http.server
import json
import re
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_report import SKIP, start_browser  # noqa: E402  (same Chromium set-up as the report check)

DEFAULT_VIEWER = Path(__file__).resolve().parent / "viewer/node_modules/speedscope/dist/release"
# speedscope's console warnings when an end does not match the top of its stack.
BROKEN_NESTING = re.compile(r"Doing nothing instead|was still open at end of profile")


def expected_profiles(doc):
    """Per (pid, tid) with duration slices: its speedscope name and the X time by name."""
    process, thread = {}, {}
    by_thread = defaultdict(lambda: defaultdict(float))
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            process[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["ph"] == "X":
            by_thread[(e["pid"], e["tid"])][e["name"]] += e["dur"]
    profiles = []
    for pid, tid in sorted(by_thread):
        name = f"{process[pid]} (pid {pid}), {thread[(pid, tid)]} (tid {tid})"
        profiles.append((name, pid, dict(by_thread[(pid, tid)])))
    return profiles


def parse_duration_us(text):
    """speedscope's time labels: '951:27' (min:s), '10.23s', '482.29ms', '12.00µs', '0.00ns'."""
    m = re.fullmatch(r"(\d+):(\d\d)", text)
    if m:
        return (int(m.group(1)) * 60 + int(m.group(2))) * 1e6
    m = re.fullmatch(r"([\d.]+)(ns|µs|us|ms|s)", text)
    if not m:
        raise ValueError(f"unknown time label {text!r}")
    return float(m.group(1)) * {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}[m.group(2)]


def sandwich_self_us(body_text):
    """Rows of the Sandwich table: name -> self time (us). Each row is total, self, name."""
    lines = [line.strip() for line in body_text.splitlines()]
    start = lines.index("Total Self Symbol Name") + 1
    rows = {}
    for i in range(start, len(lines) - 2, 3):
        total, self_, name = lines[i:i + 3]
        try:
            rows[name] = parse_duration_us(self_.split(" ")[0])
        except ValueError:
            break
    return rows


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_for(driver, predicate, timeout_s):
    from selenium.webdriver.common.by import By
    deadline = time.monotonic() + timeout_s
    text = ""
    while time.monotonic() < deadline:
        text = driver.find_element(By.TAG_NAME, "body").text
        if predicate(text):
            return text
        time.sleep(0.2)
    return text


def check(driver, url, doc):
    from selenium.webdriver.common.action_chains import ActionChains
    failures = []
    profiles = expected_profiles(doc)
    started = time.monotonic()
    driver.get(url)
    shown = f"({1}/{len(profiles)})"
    text = wait_for(driver, lambda t: shown in t or "Something went wrong" in t, 120)
    print(f"speedscope imported the timeline in {time.monotonic() - started:.1f} s")
    if "Something went wrong" in text:
        failures.append("speedscope: Something went wrong (the import failed)")
    elif shown not in text:
        failures.append(f"speedscope shows no profile {shown}; the page reads: {text[:300]!r}")
    console = driver.get_log("browser")
    broken = [e["message"] for e in console if BROKEN_NESTING.search(e.get("message", ""))]
    if broken:
        failures.append(f"speedscope read {len(broken)} slices as badly nested, e.g. {broken[0][:300]}")
    if failures:
        return failures

    training = None
    for k, (name, pid, _) in enumerate(profiles):
        if k > 0:
            ActionChains(driver).send_keys("n").perform()  # speedscope's next profile
        text = wait_for(driver, lambda t, k=k: f"({k + 1}/{len(profiles)})" in t, 10)
        ok = f"{name} ({k + 1}/{len(profiles)})" in text
        print(f"profile {k + 1}/{len(profiles)}: {name}: {'shown' if ok else 'NOT shown'}")
        if not ok:
            failures.append(f"profile {k + 1} is not named {name!r}")
        if training is None and pid >= 10:
            training = k
    if training is None:
        failures.append("the timeline has no training job (pid 10+): nothing to compare")
        return failures

    # Back to the first training profile, in the Sandwich view (key 3): self time per frame.
    for _ in range(len(profiles) - 1 - training):
        ActionChains(driver).send_keys("p").perform()
    ActionChains(driver).send_keys("3").perform()
    name, _, sums = profiles[training]
    text = wait_for(driver, lambda t: "Total Self Symbol Name" in t and name in t, 10)
    rows = sandwich_self_us(text)
    for part in ("compute", "communication", "bubble"):
        want = sums.get(part, 0.0)
        got = rows.get(f"{part} {{}}")
        print(f"  {part}: speedscope self {got / 1e6 if got is not None else float('nan'):.0f} s, "
              f"the file's slices {want / 1e6:.0f} s")
        if got is None or abs(got - want) > 0.01 * want:
            failures.append(f"{name}: speedscope gives {part} {got} us of self time, the file {want} us")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("timeline", type=Path)
    parser.add_argument("--viewer", type=Path, default=DEFAULT_VIEWER, help="speedscope's dist/release folder")
    parser.add_argument("--screenshot", type=Path)
    args = parser.parse_args()
    if not (args.viewer / "index.html").is_file():
        print(f"SKIP: no speedscope in {args.viewer}; `npm ci --prefix tests/browser/viewer` installs it "
              "(tools/browser_check.sh does)")
        return SKIP
    try:
        doc = json.loads(args.timeline.read_text())
    except (OSError, ValueError) as e:
        print(f"FAIL: {args.timeline}: {e}")
        return 2
    with tempfile.TemporaryDirectory(prefix="dcsim-viewer-") as site, \
            tempfile.TemporaryDirectory(prefix="dcsim-chromium-") as profile:
        (Path(site) / "viewer").symlink_to(args.viewer.resolve())
        (Path(site) / "timeline.json").symlink_to(args.timeline.resolve())
        server = serve(site)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        url = f"{base}/viewer/index.html#profileURL=" + urllib.parse.quote(f"{base}/timeline.json", safe="")
        driver = start_browser(profile)
        try:
            failures = check(driver, url, doc)
            if args.screenshot:
                driver.save_screenshot(str(args.screenshot))
                print(f"screenshot in {args.screenshot}")
        finally:
            driver.quit()
            server.shutdown()
    for f in failures:
        print("FAIL: " + f)
    print(f"{args.timeline}: {'passed' if not failures else str(len(failures)) + ' problems'} in speedscope")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
