#!/usr/bin/env python3
"""ddalab serve in headless Chromium: a whole Lost Cities session in a phone-sized
window and a whole Ludo session in a laptop-sized one, played by clicks and keys on the
participant's page (consent, demographics,
instructions, every game, every questionnaire, debrief, completion code), with no console error
(a CSP violation is one); a screenshot of each screen kind at 390 x 844 and 1366 x 768; the
study folder then exports. Exit 77 (skipped) without chromium, chromedriver or Selenium.

usage: serve_browser_test.py DDALAB SOURCE_DIR SHOTS_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import boards_test as boards  # noqa: E402  (skips without Selenium)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "serve"))
import serve_test  # noqa: E402  (reads DDALAB and SOURCE_DIR from sys.argv too)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

DDALAB, SOURCE, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
SIZES = [(390, 844), (1366, 768)]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def drawn(driver):
    text = driver.execute_script("return window.ddalabScreen ? JSON.stringify(window.ddalabScreen) : null")
    return json.loads(text) if text else None


def wait_for_change(driver, before, seconds=120):  # the bound only ends a failing test
    end = time.time() + seconds
    while time.time() < end:
        screen = drawn(driver)
        if screen is not None and screen != before:
            return screen
        time.sleep(0.02)
    raise RuntimeError("the page did not move on from %s" % json.dumps(before)[:200])


def click_text(driver, text):
    [b for b in driver.find_elements(By.CSS_SELECTOR, "button") if b.text == text][0].click()


def fill_form(driver, screen, by_keyboard):
    """The first option of every radio group, every slider moved one step; then Continue."""
    for fieldset in driver.find_elements(By.CSS_SELECTOR, "#page fieldset"):
        radios = fieldset.find_elements(By.CSS_SELECTOR, "input[type=radio]")
        if radios:
            radios[-1 if by_keyboard else 0].click()
        for slider in fieldset.find_elements(By.CSS_SELECTOR, "input[type=range]"):
            slider.send_keys(Keys.ARROW_RIGHT)
    submit = driver.find_element(By.CSS_SELECTOR, "#page button[type=submit]")
    if by_keyboard:
        submit.send_keys(Keys.ENTER)
    else:
        submit.click()


def shoot(driver, name, kind, seen, size):
    if kind in seen:
        return
    seen.add(kind)
    for width, height in SIZES:
        driver.set_window_size(width, height)
        time.sleep(0.1)
        driver.save_screenshot(os.path.join(SHOTS, "%s-%s-%dx%d.png" % (name, kind, width, height)))
    driver.set_window_size(*size)


def play(driver, base, name, size):
    """The whole session by clicks and keys in a window of `size` (a phone's or a laptop's)."""
    driver.set_window_size(*size)
    driver.get(base + "/?PROLIFIC_PID=browser-" + name)
    screen = wait_for_change(driver, None)
    seen, moves = set(), 0
    for step in range(3000):
        kind = screen["kind"]
        if kind == "game" and screen["waiting"]:
            screen = wait_for_change(driver, screen)
            continue
        shoot(driver, name, kind, seen, size)
        if kind == "consent":
            click_text(driver, screen["agree"])
        elif kind in ("demographics", "questionnaire"):
            fill_form(driver, screen, step % 2 == 0)
        elif kind in ("instructions", "debrief"):
            click_text(driver, "Continue")
        elif kind == "game":
            boards.choose_first_move(driver, screen["board"], moves % 2 == 0, lambda _: None)
            moves += 1
        elif kind == "complete":
            code = driver.find_element(By.ID, "code").text
            check(code == "WEB-CODE", "%s: the completion code shown: %r" % (name, code))
            break
        else:
            check(False, "%s: unexpected screen %s" % (name, screen))
            break
        screen = wait_for_change(driver, screen)
    check("complete" in seen, "%s: the session reached its completion (%d moves)" % (name, moves))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check(not errors, "%s: console errors: %s" % (name, errors[:3]))


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = boards.browser()
    try:
        with tempfile.TemporaryDirectory() as folder:
            # Lost Cities on a phone, Ludo on a laptop; every game capped at 12 rounds (then over:
            # a draw in Ludo, scored as it stands in Lost Cities), so a session by clicks takes
            # seconds (uncapped: 36 s and 82 s).
            for name, file, size, params in (
                    ("lost-cities", "user-study-lost-cities.json", SIZES[0], {"max_rounds": 12}),
                    ("ludo", "user-study-ludo.json", SIZES[1], {"max_rounds": 12})):
                study = os.path.join(folder, name)
                protocol, document = serve_test.protocol_file(folder, file, {"code": "WEB-CODE"})
                document["game"].setdefault("params", {}).update(params)
                with open(protocol, "w") as f:
                    json.dump(document, f)
                server = subprocess.Popen(
                    [DDALAB, "serve", protocol, "--dir", study, "--port", "0", "--pace-ms", "0"],
                    stdout=subprocess.PIPE, text=True)
                base = server.stdout.readline().split("on ")[1].split("/ ")[0]
                start = time.time()
                try:
                    play(driver, base, name, size)
                finally:
                    server.terminate()
                    server.wait(timeout=10)
                print("%s: a whole session by clicks at %dx%d in %.1f s"
                      % (name, size[0], size[1], time.time() - start))
                result = subprocess.run([DDALAB, "study", "export", study, "--out",
                                         os.path.join(folder, name + ".csv")],
                                        capture_output=True, text=True)
                check(result.returncode == 0, "%s: study export: %s" % (name, result.stderr))
    finally:
        driver.quit()
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
