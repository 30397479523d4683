#!/usr/bin/env python3
"""The boards (app/web/static/boards.js) in headless Chromium: every fixture screen of
ddalab_web_fixtures at a phone's (390 x 844) and a laptop's (1366 x 768) viewport, served with
the Content-Security-Policy the server will send. Checks: no console error (a CSP violation is
one), the elements each game's screen asks for (as many hand cards as the fixture's hand, ...),
no text smaller than 10 px and no horizontal scrolling, and that choosing the screen's first
legal move by clicks (and once by the keyboard) reports that action's id. Saves a screenshot
of each. Exit 77 (skipped) without chromium, chromedriver or Selenium."""
import argparse
import functools
import http.server
import json
import os
import shutil
import sys
import threading
import time
import urllib.parse

SIZES = [(390, 844), (1366, 768)]
MIN_TEXT_PX = 10
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def skip(reason):
    print(f"SKIPPED: {reason}")
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    skip("python3-selenium is not installed")


class Handler(http.server.SimpleHTTPRequestHandler):
    """/static/... from the static folder, /fixtures/... from the fixtures: nothing else."""
    roots = {}

    def translate_path(self, path):
        path = urllib.parse.unquote(urllib.parse.urlsplit(path).path)
        for prefix, root in self.roots.items():
            if path.startswith(prefix + "/"):
                rest = os.path.normpath(path[len(prefix) + 1:])
                if rest.startswith("..") or os.path.isabs(rest):
                    break
                return os.path.join(root, rest)
        return "/nonexistent"

    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(static, fixtures):
    Handler.roots = {"/static": static, "/fixtures": fixtures}
    Handler.extensions_map = {**Handler.extensions_map, ".js": "text/javascript",
                              ".json": "application/json", ".css": "text/css",
                              ".svg": "image/svg+xml"}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser():
    for binary in ("chromium", "chromedriver"):
        if not shutil.which(binary):
            skip(f"{binary} is not installed (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--disable-dev-shm-usage", "--window-size=1366,900"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver"))
    try:
        return webdriver.Chrome(options=options, service=service)
    except WebDriverException as error:
        skip(f"Chromium does not start here: {error.msg}")


class Failures:
    def __init__(self):
        self.list = []

    def check(self, condition, where, what):
        if not condition:
            self.list.append(f"{where}: {what}")
        return condition


def first_move(screen):
    return screen["legal"][0] if screen.get("legal") else None


def count(driver, css):
    return len(driver.find_elements(By.CSS_SELECTOR, css))


def check_elements(driver, screen, where, fail):
    """The elements the screen's content asks for."""
    game, o = screen["game"], screen["observation"]
    legal = screen.get("legal", [])
    if game == "lost-cities":
        fail.check(count(driver, ".hand .card") == len(o["you"]["hand"]), where,
                   f"{len(o['you']['hand'])} cards in the hand")
        fail.check(count(driver, ".opponent-hand .card-back") == o["opponent"]["handSize"],
                   where, "the opponent's hand face down, as many backs as cards")
        fail.check(count(driver, ".pile") == 5, where, "five discard piles")
        deck = driver.find_element(By.CSS_SELECTOR, ".deck").get_attribute("data-size")
        fail.check(deck == str(o["deck"]), where, f"the deck's size {o['deck']}, not {deck}")
        fail.check(count(driver, ".card .expedition-mark") == count(driver, ".card"), where,
                   "every card shows its expedition's shape, not only its colour")
        for colour in range(5):
            shown = count(driver, f".expedition[data-colour='{colour}'] .card")
            wanted = len(o["you"]["expeditions"][colour]) + len(o["opponent"]["expeditions"][colour])
            fail.check(shown == wanted, where, f"{wanted} expedition cards of colour {colour}")
    elif game == "ludo":
        fail.check(count(driver, ".piece") == 4 * len(o["seats"]), where, "four pieces a seat")
        letters = [m.text for m in driver.find_elements(By.CSS_SELECTOR, ".piece-mark")]
        wanted = sorted("RBGY"[s["seat"]] for s in o["seats"] for _ in range(4))
        fail.check(sorted(letters) == wanted, where,
                   f"every piece carries its seat's letter {wanted}, not only its colour: {letters}")
    elif game == "maze":
        fail.check(count(driver, ".move") == len(legal), where, "a target per legal action")
    elif game == "hexalines":
        fail.check(count(driver, ".field") == len(o["cells"]), where, "every field")
        fail.check(count(driver, "line.line-mark") == 2, where,
                   "the green and blue sources dashed and dotted, not only coloured")
    else:
        fail.check(count(driver, "pre.observation") == 1, where, "the observation text")
        fail.check(count(driver, "button.action") == len(legal), where, "a button per action")
    if game in ("ludo", "hexalines", "lost-cities") and legal:
        fail.check(count(driver, ".move") > 0, where, "focusable moves on the seat's turn")
    if game in ("maze", "ludo", "hexalines", "lost-cities"):
        fail.check(all(m.get("does", {}).get("verb") for m in legal), where,
                   "every legal move says what it does (the board picks moves by it)")
    if not legal:
        fail.check(count(driver, ".move") + count(driver, "button.action") == 0, where,
                   "no moves when the seat is not on turn")


def click(driver, css):
    driver.find_element(By.CSS_SELECTOR, css).click()


def choose_first_move(driver, screen, keyboard, shot):
    """Chooses the screen's first legal move as a person would (read from what the move does,
    as the board reads it); returns the expected id."""
    move = first_move(screen)
    action, game, does = move["action"], screen["game"], move.get("does", {})
    if game == "lost-cities":
        kind, discard = does["card"], does["verb"] == "discard"
        click(driver, f".hand .move[data-kind='{kind}']")
        click(driver, f".pile.move[data-colour='{kind // 10}']" if discard
              else f".expedition.move[data-colour='{kind // 10}']")
        shot("choosing")  # the card chosen, where to draw from highlighted
        click(driver, ".deck.move" if does["draw"] == "deck"
              else f".pile.move[data-colour='{does['pile']}']")
    elif game == "hexalines" and does["verb"] == "rotate":
        field = does["field"]
        click(driver, f".field.move[data-field='{field}']")
        shot("rotating")
        rotations = sorted((m["does"]["sixths"], m["action"]) for m in screen["legal"]
                           if m["does"]["verb"] == "rotate" and m["does"]["field"] == field)
        action = rotations[0][1]  # the board starts at the smallest turn
        driver.find_element(By.XPATH, "//button[text()='Rotate']").click()
    elif game == "hexalines":
        click(driver, f".field.move[data-field='{does['field']}']")
    elif game in ("maze", "ludo"):
        passing = game == "ludo" and does["verb"] == "pass"
        label = "pass (no piece can move)" if passing else move["label"]
        target = [e for e in driver.find_elements(By.CSS_SELECTOR, ".move")
                  if e.get_attribute("aria-label") == label][0]
        if keyboard:
            driver.execute_script("arguments[0].focus()", target)
            ActionChains(driver).send_keys(Keys.ENTER).perform()
        else:
            target.click()
    else:
        driver.find_elements(By.CSS_SELECTOR, "button.action")[0].click()
    return action


def choose_lost_cities_by_keyboard(driver, screen, where, fail):
    """Enter on the first hand card, then on wherever the keyboard lands twice: a legal action
    with that card (the focus follows the steps)."""
    first = driver.find_element(By.CSS_SELECTOR, ".hand .move")
    kind = int(first.get_attribute("data-kind"))
    driver.execute_script("arguments[0].focus()", first)
    for _ in range(3):
        ActionChains(driver).send_keys(Keys.ENTER).perform()
    chosen = driver.find_element(By.ID, "status").get_attribute("data-action")
    cards = {m["action"]: m["does"]["card"] for m in screen["legal"]}
    fail.check(chosen is not None and cards.get(int(chosen)) == kind, where,
               f"three Enters from the hand card {kind} choose one of its legal actions, "
               f"not {chosen}")


def check_readable(driver, where, fail):
    small = driver.execute_script(
        "return [...document.querySelectorAll('svg text, p, h2, button, pre')]"
        ".map(e => [e.textContent.slice(0, 20), e.getBoundingClientRect().height])"
        f".filter(([t, h]) => t.trim() && h > 0 && h < {MIN_TEXT_PX});")
    fail.check(not small, where, f"text smaller than {MIN_TEXT_PX} px: {small[:3]}")
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - window.innerWidth;")
    fail.check(overflow <= 0, where, f"scrolls sideways by {overflow} px")


def check_page(driver, screen, where, fail, keyboard_done, shots, name):
    """One fixture at one size: elements, readability, a screenshot, its first move chosen."""
    check_elements(driver, screen, where, fail)
    check_readable(driver, where, fail)
    width, height = driver.execute_script("return [window.innerWidth, window.innerHeight];")

    def shot(step=""):
        step = f"-{step}" if step else ""
        driver.save_screenshot(os.path.join(shots, f"{name}-{width}x{height}{step}.png"))

    shot()
    if not first_move(screen):
        return
    # Once per game whose moves are single elements: by the keyboard.
    keyboard = screen["game"] not in keyboard_done
    keyboard_done.add(screen["game"])
    if keyboard and screen["game"] == "lost-cities":
        return choose_lost_cities_by_keyboard(driver, screen, where, fail)
    keyboard = keyboard and screen["game"] in ("maze", "ludo")
    expected = choose_first_move(driver, screen, keyboard, shot)
    status = driver.find_element(By.ID, "status")
    fail.check(status.get_attribute("data-action") == str(expected), where,
               f"the {'keyboard' if keyboard else 'click'} choice reports action {expected}, "
               f"not {status.get_attribute('data-action')} ({status.text})")


def run(args):
    names = json.load(open(os.path.join(args.fixtures, "index.json")))
    os.makedirs(args.shots, exist_ok=True)
    server = serve(os.path.abspath(args.static), os.path.abspath(args.fixtures))
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    driver = browser()
    fail = Failures()
    started = time.monotonic()
    keyboard_done = set()
    try:
        for name in names:
            screen = json.load(open(os.path.join(args.fixtures, f"{name}.json")))
            for width, height in SIZES:
                where = f"{name} at {width}x{height}"
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1,
                    "mobile": width < 600})
                try:
                    driver.get(f"{origin}/static/dev/boards.html?screen=/fixtures/{name}.json")
                    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
                        "return document.body.dataset.ready === 'true' || "
                        "document.getElementById('status').textContent.startsWith('error');"))
                    check_page(driver, screen, where, fail, keyboard_done, args.shots, name)
                except WebDriverException as error:
                    fail.check(False, where, f"{type(error).__name__}: {error.msg}")
                except (IndexError, KeyError) as error:
                    fail.check(False, where, f"an element or field is missing: {error!r}")
                for entry in driver.get_log("browser"):
                    fail.check(entry["level"] not in ("SEVERE", "WARNING"), where,
                               f"console: {entry['message']}")
    finally:
        driver.quit()
        server.shutdown()
    seconds = time.monotonic() - started
    print(f"{len(names)} screens x {len(SIZES)} sizes in {seconds:.1f} s; screenshots in "
          f"{args.shots}")
    for failure in fail.list:
        print("FAILED:", failure)
    return 1 if fail.list else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--static", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--shots", required=True)
    sys.exit(run(parser.parse_args()))
