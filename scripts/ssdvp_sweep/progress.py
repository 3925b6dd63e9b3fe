"""Progress of a sweep on stderr: on a terminal one line redrawn in place (a bar, runs done,
failed, remaining, ETA); elsewhere (a log, ctest, Slurm output) one plain line per finished run.
The ETA is the remaining runs at the average rate since the first submission. Leaves out the
Dask dashboard (the cluster's own; it needs bokeh, see docs/sweeps.md)."""
import sys
import time

BAR = 28


def duration(seconds):
    seconds = int(max(0, seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s" if m else f"{s}s"


class Progress:
    def __init__(self, total, skipped=0, stream=None, tty=None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.total, self.skipped = total, skipped
        self.done = self.failed = 0
        self.started = time.time()
        if skipped:
            self._line(f"{skipped} run(s) already in the store, skipped")
        if self.tty:
            self._draw()

    def remaining(self):
        return self.total - self.done - self.failed

    def eta(self):
        finished = self.done + self.failed
        if not finished:
            return "?"
        return duration((time.time() - self.started) / finished * self.remaining())

    def update(self, row):
        if row["status"] == "ok":
            self.done += 1
        else:
            self.failed += 1
        finished = self.done + self.failed
        if self.tty:
            if row["status"] != "ok":
                self._line(f"FAILED {row['label']}: {row['status']}: {' '.join((row.get('error') or '').splitlines()[-1:])}")
            self._draw()
        else:
            error = (row.get("error") or "").splitlines()[-1:] if row["status"] != "ok" else []
            self._line(f"[{finished}/{self.total}] {row['status']:<8} {row['label']} ({row['wall_s']:.1f} s)"
                       f"{'  ' + error[0] if error else ''}  failed {self.failed}, remaining {self.remaining()}, "
                       f"ETA {self.eta()}")

    def _draw(self):
        finished = self.done + self.failed
        filled = BAR * finished // max(self.total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (BAR - filled)}] {self.done} done, {self.failed} failed, "
                          f"{self.remaining()} remaining, ETA {self.eta()}   ")
        self.stream.flush()

    def _line(self, text):
        if self.tty:
            self.stream.write("\r\033[K")
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self):
        self._line(f"sweep: {self.done} ok, {self.failed} failed, {self.skipped} skipped, "
                   f"{duration(time.time() - self.started)} wall")
