"""The results store of a sweep folder: one row per run, keyed by the run's content hash, kept as
results.parquet (pyarrow; the store itself) and results.csv (the same rows for a spreadsheet),
both rewritten atomically (temporary file, then rename) so a killed sweep leaves the last
complete version. Each run's own files (run.json, latency_<op>.csv) go to runs/<hash>/.

Columns: the identity and status of the run (IDENTITY below), config.<key> for every key of
the resolved configuration (the keys the sweep varied are listed in "swept"), then the run.json figures flattened (flatten.py). A row whose status is ok is a
finished run: engine.py does not run it again.
Leaves out concurrent writers: one sweep at a time per folder.
"""
import json
import os
import shutil
from pathlib import Path

import pandas as pd

IDENTITY = ["hash", "tag", "label", "swept", "status", "exit_code", "error", "platform", "workload", "repeat", "build",
            "worker", "wall_s", "finished_at", "run_dir"]


class ResultsStore:
    def __init__(self, folder):
        self.folder = Path(folder)
        self.parquet = self.folder / "results.parquet"
        self.csv = self.folder / "results.csv"
        self.rows = {}
        if self.parquet.exists():
            for row in pd.read_parquet(self.parquet).to_dict("records"):
                self.rows[row["hash"]] = {k: v for k, v in row.items() if not _missing(v)}

    def ok_hashes(self):
        return {h for h, r in self.rows.items() if r.get("status") == "ok"}

    def put(self, row):
        self.rows[row["hash"]] = row

    def run_dir(self, run_hash):
        return self.folder / "runs" / run_hash

    def save_files(self, run_hash, files):
        """Replaces runs/<hash>/ by these files (none: the folder is removed); returns it or None."""
        folder = self.run_dir(run_hash)
        shutil.rmtree(folder, ignore_errors=True)
        if not files:
            return None
        folder.mkdir(parents=True)
        for name, text in files.items():
            (folder / Path(name).name).write_text(text)
        return folder

    def frame(self, hashes=None):
        rows = [r for h, r in self.rows.items() if hashes is None or h in hashes]
        df = pd.DataFrame(rows)
        if df.empty:
            return pd.DataFrame(columns=IDENTITY)
        config = sorted(c for c in df.columns if c.startswith("config."))
        figures = sorted(c for c in df.columns if c not in IDENTITY and c not in config)
        df = df.reindex(columns=IDENTITY + config + figures)
        for c in df.columns:
            if df[c].dtype == object:
                kinds = {type(v) for v in df[c] if not _missing(v)}
                if len(kinds) > 1 or kinds & {list, dict}:
                    df[c] = [None if _missing(v) else str(v) for v in df[c]]
        return df

    def write_manifest(self, name, planned):
        """Records which run (hash) stands for each tag of a named run set (an experiment), added
        to what an earlier invocation recorded: checks read exactly these runs, not older ones."""
        path = self.folder / f"{name}.manifest.json"
        tags = self.read_manifest(name)
        tags.update({p.spec.tag: p.hash for p in planned})
        self.folder.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(tags, indent=1, sort_keys=True) + "\n")

    def read_manifest(self, name):
        path = self.folder / f"{name}.manifest.json"
        return json.loads(path.read_text()) if path.exists() else {}

    def tagged_rows(self, name):
        """{tag: row} of the runs the manifest names that are in the store (any status)."""
        return {tag: self.rows[h] for tag, h in self.read_manifest(name).items() if h in self.rows}

    def flush(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        df = self.frame()
        for path, write in ((self.parquet, lambda p: df.to_parquet(p, index=False)),
                            (self.csv, lambda p: df.to_csv(p, index=False))):
            tmp = path.with_name(path.name + ".tmp")
            write(tmp)
            os.replace(tmp, path)


def _missing(v):
    return v is None or (isinstance(v, float) and v != v)
