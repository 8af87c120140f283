#!/usr/bin/python3
"""Make `dcsim report` pages of finished runs and check each in headless Chromium.

    /usr/bin/python3 tests/browser/check_report.py --dcsim build/dcsim RUN_DIR [RUN_DIR ...]
        [--screenshot PNG] [--expect-sections headline,power,...] [--expect-title TEXT]
        [--expect-selector CSS ...]

For each RUN_DIR (a directory `dcsim run -o` wrote) it runs `dcsim report RUN_DIR`, opens
RUN_DIR/report.html through file:// in headless Chromium (Debian's chromium + chromium-driver,
driven by python3-selenium) and checks that:
  - the browser logged no SEVERE entry (a script error, a failed load) while loading it and while
    the pointer moved over a chart (the hover script runs);
  - the page fetched nothing: no resource timing entries (no network, no other file);
  - every plot (svg[data-points]) has more than 0 points and a rendered size above zero;
  - every section named by --expect-sections is on the page;
  - the page's heading reads --expect-title literally (a scenario name with < & " shows as
    written, never as markup);
  - every --expect-selector matches at least one element that renders with an area (e.g.
    "rect.shade", a shaded fault window; "path.band", a long run's band; "section#inference svg").
--screenshot saves the first page, whole, as a PNG (docs/outputs.md's picture).

Exit codes: 0 every page passed, 1 a check failed (what and where is printed), 2 bad arguments or
dcsim report failed, 77 skipped: chromium, chromedriver or selenium is not installed (CTest's
SKIP_RETURN_CODE; tools/setup.sh installs them).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    # No network on the test machines: without these Chromium tries to reach Google's services
    # and logs the failures.
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1000,900",
]


def find(name, candidates):
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    return shutil.which(name)


def skip(reason):
    print(f"SKIP: {reason}; the report's browser check needs Debian's chromium, chromium-driver and "
          "python3-selenium (bash tools/setup.sh installs them)")
    sys.exit(SKIP)


def start_browser(profile):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        skip("python3-selenium is not installed")
    chromium = find("chromium", [os.environ.get("CHROMIUM"), "/usr/bin/chromium"])
    driver_bin = find("chromedriver", [os.environ.get("CHROMEDRIVER"), "/usr/bin/chromedriver"])
    if not chromium:
        skip("chromium is not installed")
    if not driver_bin:
        skip("chromedriver (Debian: chromium-driver) is not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver_bin), options=options)


def make_report(dcsim, run_dir):
    started = time.monotonic()
    r = subprocess.run([dcsim, "report", str(run_dir)], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL: dcsim report {run_dir} exited {r.returncode}: {r.stdout}{r.stderr}")
        sys.exit(2)
    page = Path(run_dir) / "report.html"
    print(f"{page}: {page.stat().st_size / 1e6:.3f} MB written in {time.monotonic() - started:.2f} s")
    return page


def check_page(driver, page, expect_sections, expect_title=None, expect_selectors=()):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    failures = []
    driver.get_log("browser")  # drop what an earlier page left
    started = time.monotonic()
    driver.get(page.resolve().as_uri())
    for _ in range(100):
        if driver.execute_script("return document.readyState") == "complete":
            break
        time.sleep(0.1)
    load_s = time.monotonic() - started

    plots = driver.find_elements(By.CSS_SELECTOR, "svg[data-points]")
    if not plots:
        failures.append("no plot (svg[data-points]) on the page")
    for i, svg in enumerate(plots):
        title = svg.get_attribute("aria-label")
        points = int(svg.get_attribute("data-points"))
        size = svg.size
        if points <= 0:
            failures.append(f"plot {i} '{title}' has no data (data-points={points})")
        if size["width"] <= 0 or size["height"] <= 0:
            failures.append(f"plot {i} '{title}' renders with no area ({size})")

    hover = driver.find_elements(By.CSS_SELECTOR, "svg.chart[data-plot]")
    if hover:
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", hover[0])
        ActionChains(driver).move_to_element(hover[0]).perform()
        readout = hover[0].find_element(By.CSS_SELECTOR, "text.hover").text
        if not readout.startswith("x "):
            failures.append(f"the hover readout of '{hover[0].get_attribute('aria-label')}' is '{readout}'")

    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    if fetched:
        failures.append(f"the page fetched {fetched}")
    for section in expect_sections:
        if not driver.find_elements(By.CSS_SELECTOR, f"section#{section}"):
            failures.append(f"section '{section}' is missing")
    for selector in expect_selectors:
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        if not found:
            failures.append(f"nothing matches '{selector}'")
        elif not any(e.size["width"] > 0 and e.size["height"] > 0 for e in found):
            failures.append(f"'{selector}' matches {len(found)} elements, none with an area")
    if expect_title is not None:
        heading = driver.find_element(By.TAG_NAME, "h1").text
        if heading != expect_title:
            failures.append(f"the heading reads {heading!r}, expected {expect_title!r}")
    for entry in driver.get_log("browser"):
        if entry.get("level") == "SEVERE":
            failures.append(f"console: {entry.get('message')}")
    print(f"{page}: {len(plots)} plots, loaded in {load_s:.2f} s, "
          f"{'ok' if not failures else str(len(failures)) + ' problems'}")
    return failures


def save_screenshot(driver, page, target):
    driver.get(page.resolve().as_uri())
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1000, min(height + 40, 16000))
    driver.save_screenshot(str(target))
    print(f"screenshot of {page} in {target}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dcsim", required=True, help="the dcsim binary")
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--screenshot", type=Path)
    parser.add_argument("--expect-sections", default="", help="comma-separated section ids every page must have")
    parser.add_argument("--expect-title", help="the text every page's heading must read")
    parser.add_argument("--expect-selector", action="append", default=[],
                        help="a CSS selector every page must match with a rendered element (repeatable)")
    args = parser.parse_args()
    expect = [s for s in args.expect_sections.split(",") if s]
    for d in args.run_dirs:
        if not (d / "summary.json").is_file():
            print(f"FAIL: {d} is not a finished run (no summary.json)")
            return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="dcsim-chromium-") as profile:
        driver = start_browser(profile)
        try:
            pages = [make_report(args.dcsim, d) for d in args.run_dirs]
            failures = []
            for page in pages:
                failures += [f"{page}: {f}" for f in check_page(driver, page, expect, args.expect_title,
                                                                  args.expect_selector)]
            if args.screenshot and not failures:
                save_screenshot(driver, pages[0], args.screenshot)
        finally:
            driver.quit()
    for f in failures:
        print("FAIL: " + f)
    print(f"{len(pages)} reports checked in Chromium in {time.monotonic() - started:.1f} s: "
          f"{'all passed' if not failures else str(len(failures)) + ' problems'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
