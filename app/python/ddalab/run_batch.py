"""ddalab.run: a batch run into a results folder by the same run service as ``ddalab run``."""
import os
import sys

from . import _ddalab
from .results import load

__all__ = ["run"]


def run(batch, threads=0, out=None, progress=True, resume=False, overwrite=False):
    """Runs ``batch`` into a results folder and returns its tables (``ddalab.load(out)``).

    batch: a batch or experiment file (str or os.PathLike), or a dict in the batch format (the
        same parser as a file's; errors name it "batch").
    threads: worker threads 1..1024, 0 = every core; the results do not depend on it.
    out: the results folder; None = ddalab-out/<file stem> (ddalab-out/batch for a dict), as
        the CLI.
    progress: a one-line bar on a terminal's stderr, an updating line in Jupyter, a line every
        10 s otherwise; False = silent.
    resume: continue the interrupted run in ``out`` (the same batch); overwrite: replace the
        results ``out`` holds. Without either a folder holding other results is refused.

    The GIL is released while the batch runs. Ctrl-C stops it as the CLI's first SIGINT does:
    no new game starts, running games get a second, every finished game is saved and the files
    are written; then KeyboardInterrupt is raised saying how to continue (``resume=True``). A
    second Ctrl-C gives up the running games at once.
    Raises InputError (a ValueError) for a bad batch or a folder that cannot be used, with the
    CLI's message, and WriteError (an OSError) when a write fails.
    """
    if not isinstance(batch, dict):
        batch = os.fspath(batch)
        if not isinstance(batch, str):
            raise TypeError("ddalab.run: batch must be a str path, an os.PathLike or a dict")
    if out is not None:
        out = os.fspath(out)
    display = _Progress() if progress else None
    try:
        outcome = _ddalab._run(batch, threads, out, resume, overwrite, display)
    finally:
        if display is not None:
            display.finish()
    if outcome["interrupted"]:
        raise KeyboardInterrupt(_resume_hint(batch, outcome))
    return load(outcome["out"])


def _resume_hint(batch, outcome):
    shown = repr(batch) if isinstance(batch, str) else "<the same dict>"
    return (f"stopped: {outcome['games']} finished games kept and saved in {outcome['out']}; "
            f"continue with: ddalab.run({shown}, out={str(outcome['out'])!r}, resume=True)")


def _duration(seconds):
    """'1:05' or '2:03:07', as the CLI shows durations."""
    total = max(0, round(seconds))
    if total >= 3600:
        return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"
    return f"{total // 60}:{total % 60:02d}"


def _line(done, total, elapsed, eta, experiment, width=30):
    fraction = done / total if total else 1.0
    filled = int(fraction * width)
    return (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {100 * fraction:3.0f}%  "
            f"elapsed {_duration(elapsed)}  left {_duration(eta)}  {experiment}")


def _jupyter_display():
    """An updatable display handle when running in a Jupyter kernel, else None."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None or "IPKernelApp" not in getattr(shell, "config", {}):
        return None
    return display(_Text(""), display_id=True)


class _Text:
    """Plain text for IPython.display (no HTML: it shows the same in every front end)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


class _Progress:
    """Called by the run about every 0.25 s: a bar on a terminal, an updated line in Jupyter,
    a line every 10 s (and the last) in a log."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.handle = _jupyter_display()
        self.terminal = self.handle is None and _isatty(self.stream)
        self.drawn = False
        self.last_printed = -1e9
        self.last_done = None

    def __call__(self, done, total, elapsed, eta, experiment):
        line = _line(done, total, elapsed, eta, experiment)
        if self.handle is not None:
            self.handle.update(_Text(line))
        elif self.terminal:
            self.stream.write("\r" + line + "\033[K")
            self.stream.flush()
            self.drawn = True
        elif done != self.last_done and (elapsed - self.last_printed >= 10 or done >= total):
            self.last_printed, self.last_done = elapsed, done
            self.stream.write("progress: " + line + "\n")
            self.stream.flush()

    def finish(self):
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
