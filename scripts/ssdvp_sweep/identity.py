"""What identifies a run's result: the ssdvp build (a content hash of the binary, plus the
RV32 firmware image when the firmware runs on the ISS), the workload (its spec, with a content
hash of every trace file it names), the resolved configuration and any further run options; run_hash() combines them
into the store's key. Leaves out the host machine: simulated figures do not depend on it."""
import hashlib
import json
from functools import lru_cache
from pathlib import Path

# Keys that change where or how a run reports, never what it measures.
PRESENTATION_KEYS = ("sim.output_dir", "sim.progress")


@lru_cache(maxsize=None)
def _file_digest(path, mtime_ns, size):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def file_digest(path):
    st = Path(path).stat()
    return _file_digest(str(Path(path).resolve()), st.st_mtime_ns, st.st_size)


def build_id(binary, config):
    """Hash of the ssdvp binary, and of the firmware image it will load on the ISS."""
    parts = [file_digest(binary)]
    if config.get("firmware.mode") == "iss":
        image = config.get("firmware.image") or str(Path(binary).resolve().parents[1] / "ftl-sw-rv32" / "ssdvp-fw.elf")
        parts.append(file_digest(image) if Path(image).exists() else f"missing:{image}")
    return hashlib.sha256("+".join(parts).encode()).hexdigest()[:16]


GENERATORS = ("fio:", "rr:")


def trace_path(phase):
    """The trace file a workload phase reads ("trace:PATH,opts" or "PATH,opts"), or None for a
    generator (docs/traces.md: paths cannot contain ',')."""
    if phase.startswith(GENERATORS):
        return None
    return phase.removeprefix("trace:").split(",")[0]


def workload_identity(workload):
    """The workload spec, with each trace file's content hash beside its path."""
    phases = []
    for phase in workload.split(";"):
        path = trace_path(phase)
        phases.append(f"{phase}#{file_digest(path)}" if path and Path(path).is_file() else phase)
    return ";".join(phases)


def run_hash(config, workload, build, args=()):
    body = {"config": {k: v for k, v in config.items() if k not in PRESENTATION_KEYS},
            "workload": workload_identity(workload), "build": build}
    if args:   # options beyond the configuration (a power cut); absent keeps older stores' keys
        body["args"] = list(args)
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:20]
