"""Opens the HTML report in headless Chromium and checks it against the database (run by
scripts/check-report, which makes the database and the page):

  - the browser logs no error;
  - every chart is there, with as many marks as the database has data (counted here with
    SQL, not by the report's code);
  - for each kind, a click on a puzzle draws its board; five steps forward and one back show
    step 4 (or the last but one, for shorter solutions) and reset shows step 0, each the SVG
    `gridlock render --step` draws; play moves on, stop holds.
"""

import json
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

binary, work = sys.argv[1], sys.argv[2]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL " + message, file=sys.stderr)


def expected_marks():
    """Marks per chart, from the database alone."""
    db = sqlite3.connect(f"{work}/r.sqlite")
    ran = "status NOT IN ('invalid', 'failed')"
    report = json.load(open(f"{work}/report.json"))
    marks = {
        "times": sum(1 for g in report["groups"] if g["band"] != "all" and g["timed_jobs"] > 0),
        "memory": min(1500, db.execute(f"SELECT COUNT(*) FROM results WHERE {ran} AND states > 0 AND memory_bytes > 0").fetchone()[0]),
    }
    batches = [row[0] for row in db.execute("SELECT DISTINCT batch FROM results ORDER BY batch")][-5:]
    for index, batch in enumerate(batches):
        jobs = db.execute("SELECT COUNT(*) FROM results WHERE batch = ?", (batch,)).fetchone()[0]
        assert jobs <= 2000, "one mark a job only up to 2,000 jobs"
        marks[f"stored-{index}"] = jobs
        marks[f"workers-{index}"] = jobs
    # Ratios, per batch: each solver against the first of its kind met (in batch and job
    # order), on puzzles of that batch both answered right, timed in CPU seconds (the
    # report's default basis) above zero.
    order, times = {}, {}
    for batch, kind, source, solver, seconds, right in db.execute(
            f"SELECT batch, kind, source, solver, cpu_seconds, status IN ('solved', 'unsolvable') AND verdict != 'wrong' "
            f"AND (expected_moves IS NULL OR COALESCE(moves, -1) = expected_moves) "
            f"FROM results WHERE {ran} ORDER BY batch, job"):
        order.setdefault(kind, [])
        if solver not in order[kind]:
            order[kind].append(solver)
        if right:
            times.setdefault((batch, kind, source), {})[solver] = seconds
    # The competitions' plots, of the first kind met: a cactus line per solver, and a scatter
    # dot per puzzle that either of its first two solvers answered.
    kind_order, solvers, puzzles = [], [], {}
    for batch, kind, source, solver in db.execute("SELECT batch, kind, source, solver FROM results WHERE status != 'invalid' ORDER BY batch, job"):
        kind_order = kind_order or [kind]
        if kind != kind_order[0]:
            continue
        if solver not in solvers:
            solvers.append(solver)
        puzzles.setdefault((batch, source), set()).add(solver)
    if solvers:
        marks["cactus"] = len(solvers)
    if len(solvers) >= 2:
        marks["scatter"] = sum(1 for answered in puzzles.values() if solvers[0] in answered or solvers[1] in answered)
    # Each batch's baseline: the first of the kind's solvers (in that order) that the batch ran.
    ran = {}
    for batch, kind, solver in db.execute("SELECT batch, kind, solver FROM results WHERE status != 'invalid'"):
        ran.setdefault((batch, kind), set()).add(solver)
    marks["ratios"] = 0
    for batch in {key[0] for key in times}:
        for kind, solvers in order.items():
            ran_here = [solver for solver in solvers if solver in ran.get((batch, kind), set())]
            marks["ratios"] += sum(
                1 for solver in ran_here[1:]
                if any(k[0] == batch and k[1] == kind and ran_here[0] in t and solver in t and t[ran_here[0]] > 0 and t[solver] > 0
                       for k, t in times.items()))
    return marks


def elements(svg_text):
    """An SVG's elements in order, as (tag, attributes, text): serialisation aside."""
    root = ElementTree.fromstring(svg_text)
    return [(node.tag, sorted(node.attrib.items()), (node.text or "").strip()) for node in root.iter()]


def rendered(player, step):
    command = [binary, "render", "--kind", player["kind"], "--solver", player["solver"], "--step", str(step), "--", player["puzzle"]]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"]:
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
try:
    driver.get(f"file://{work}/report.html")
    check("Gridlock report" in driver.title, f"the page's title: {driver.title!r}")

    want = expected_marks()
    charts = {chart.get_attribute("data-chart"): chart for chart in driver.find_elements(By.CSS_SELECTOR, "svg.chart")}
    for name, count in want.items():
        chart = charts.get(name)
        check(chart is not None, f"chart {name} is missing (charts: {sorted(charts)})")
        if chart is None:
            continue
        drawn = len(chart.find_elements(By.CSS_SELECTOR, ".mark"))
        check(count > 0, f"chart {name}: the database has no data for it")
        check(drawn == count, f"chart {name}: {drawn} marks drawn, the database has {count}")
        check(chart.get_attribute("data-marks") == str(drawn), f"chart {name}: data-marks says {chart.get_attribute('data-marks')}, {drawn} drawn")
    check(set(charts) == set(want), f"charts {sorted(charts)}, expected {sorted(want)}")

    label = driver.find_element(By.ID, "step")
    board = driver.find_element(By.ID, "board")

    def click(name, times=1):
        for _ in range(times):
            driver.find_element(By.ID, name).click()

    def shown():
        return int(label.get_attribute("data-step")), board.get_attribute("innerHTML")

    kinds_seen = set()
    for link in driver.find_elements(By.CSS_SELECTOR, "#kinds a.puzzle"):
        kind = link.get_attribute("data-kind")
        player = driver.execute_script("return JSON.parse(document.getElementById('puzzle-' + arguments[0]).textContent)", link.get_attribute("data-puzzle"))
        link.click()
        check(driver.find_element(By.ID, "player").is_displayed(), f"{kind}: the player did not open")
        steps = len(player["frames"]) - 1
        check(steps >= 1, f"{kind}: no steps to play ({player['note']})")
        step, svg = shown()
        check(step == 0 and elements(svg) == elements(rendered(player, 0)), f"{kind}: the first board is not render's step 0")
        click("forward", 5)
        click("back")
        want_step = max(0, min(5, steps) - 1)
        step, svg = shown()
        check(step == want_step, f"{kind}: five forward and one back show step {step}, not {want_step}")
        check(elements(svg) == elements(rendered(player, want_step)), f"{kind}: step {want_step} is not what render --step {want_step} draws")
        click("reset")
        step, svg = shown()
        check(step == 0 and elements(svg) == elements(rendered(player, 0)), f"{kind}: reset does not show render's step 0")
        click("play")
        deadline = time.time() + 5
        while shown()[0] == 0 and time.time() < deadline:
            time.sleep(0.1)
        click("stop")
        held = shown()[0]
        time.sleep(1.3)
        check(held > 0 and shown()[0] == held, f"{kind}: play reached step {held}, and stop held it at {shown()[0]}")
        kinds_seen.add(kind)
    check(kinds_seen == {"rushhour", "tiles", "sudoku", "tilt"}, f"players for {sorted(kinds_seen)}, expected every kind")

    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"console errors: {errors}")
finally:
    driver.quit()

if failures:
    print(f"check-report: {len(failures)} failed", file=sys.stderr)
    sys.exit(1)
print(f"check-report: the page logs no error; charts {', '.join(f'{k} {v}' for k, v in sorted(want.items()))} marks, "
      f"as the database has; the players of {', '.join(sorted(kinds_seen))} match render --step")
