#!/usr/bin/env bash
# Builds the user guide (docs/, mkdocs.yml) as a site into build-docs/ and checks it, so a broken
# link or a missing page fails: mkdocs in strict mode (every link between pages, every nav entry),
# every page of docs/ in the nav, no script, stylesheet or font of the site loaded from another
# host (the site must work offline), and every relative link of README.md pointing at a file of
# the repository (mkdocs does not read the README), and every source path a page names existing. Run by scripts/test.sh; exit 1 on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
site=build-docs

mkdocs build --strict --site-dir "$site"

python3 - "$site" <<'PY'
import pathlib, re, sys

site = pathlib.Path(sys.argv[1])
problems = []

# Every page is reachable from the nav (mkdocs only notes a page left out).
nav = pathlib.Path("mkdocs.yml").read_text()
for page in sorted(pathlib.Path("docs").rglob("*.md")):
    name = page.relative_to("docs").as_posix()
    if not re.search(r":\s*" + re.escape(name) + r"\s*$", nav, re.M):
        problems.append(f"docs/{name}: not in mkdocs.yml's nav")

# Nothing the browser loads by itself comes from another host (links a reader clicks may).
loaded = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)", re.I)
css_url = re.compile(r"(?:url\(\s*[\"']?|@import\s+[\"'])((?:https?:)?//[^\"')\s]+)", re.I)
for f in sorted(site.rglob("*")):
    if f.suffix in (".html", ".css"):
        text = f.read_text(errors="replace")
        for pattern in (loaded, css_url):
            for m in pattern.finditer(text):
                problems.append(f"{f}: loads {m.group(1)}")

# README.md: every relative link and picture names a file or folder that exists.
readme = pathlib.Path("README.md").read_text()
for n, line in enumerate(readme.split("\n"), 1):
    for target in re.findall(r"\]\(([^)\s]+)\)", line):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#")[0]
        if "../" in path or not pathlib.Path(path).exists():
            problems.append(f"README.md:{n}: link to {target}: no such file in the repository")
if readme.count("\n") > 300:
    problems.append(f"README.md: {readme.count(chr(10))} lines (the README stays at most 300)")

# Every source path the guide or the README names exists (a file moved leaves no stale path).
source = re.compile(r"(?<![\w/.-])((?:app|core|games|players|experiments|results|studies|tests|"
                    r"scripts|bench|examples|cmake)/[\w./-]*\.(?:json|h|cpp|py|js|sh|R|txt|html|css))(?!\w)")
for page in [pathlib.Path("README.md")] + sorted(pathlib.Path("docs").rglob("*.md")):
    for n, line in enumerate(page.read_text().split("\n"), 1):
        for path in source.findall(line):
            if "*" not in path and "<" not in path and not pathlib.Path(path).exists():
                problems.append(f"{page}:{n}: names {path}: no such file in the repository")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
echo "docs: the site built in $site/, its links and the README's checked"
