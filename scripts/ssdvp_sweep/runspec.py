"""One run of a sweep: what the user asked for (RunSpec: platform, workload, key settings, which
keys the sweep varies, repeat number) and what will run (PlannedRun: the configuration resolved
the way ssdvp resolves it — schema defaults, then the platform TOML, then the settings in order
— every value checked, the content hash that keys the store, and the task a worker executes).

Leaves out running anything (task.py) and cross-key checks (ssdvp's own, at run time).
"""
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SweepInputError
from .identity import build_id, file_digest, run_hash, trace_path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class RunSpec:
    platform: str = ""                 # TOML path, a name under platforms/, or "" (built-in default)
    workload: str = ""                 # spec or trace path; "" = the configuration's workload.spec
    settings: list = field(default_factory=list)   # [(key, value, where)], applied in order
    swept: tuple = ()                  # keys the sweep varies (shown, and columns of the store)
    repeat: int = 0
    tag: str = ""                      # a name the caller gives the run (experiments: "paper/dftl")
    args: tuple = ()                   # more `ssdvp run` options (e.g. ("--power-cut", "random:3"))


@dataclass
class PlannedRun:
    spec: RunSpec
    config: dict                       # every key, typed, as ssdvp will hold it
    workload: str                      # absolute paths for trace files
    platform_path: str                 # absolute, or ""
    hash: str
    build: str
    sets: list                         # "key=value" texts for --set

    def label(self):
        shown = {k: v for k, v, _ in self.spec.settings if k in self.spec.swept}
        parts = [f"{k}={format_value(v)}" for k, v in shown.items()]
        if self.spec.repeat:
            parts.append(f"repeat={self.spec.repeat}")
        return " ".join(parts) or "base"

    def task(self, binary, timeout_s=None):
        """The picklable description task.run_one executes on a worker."""
        cmd = [str(Path(binary).resolve()), "run", "--quiet"]
        if self.platform_path:
            cmd += ["--platform", self.platform_path]
        if self.workload:
            cmd += ["--workload", self.workload]
        for s in self.sets + ["sim.progress=false"]:
            cmd += ["--set", s]
        cmd += list(self.spec.args)
        return {"hash": self.hash, "command": cmd, "timeout_s": timeout_s, "binary_sha256": file_digest(binary)}


def format_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def platform_path(platform):
    if not platform:
        return ""
    p = Path(platform)
    for candidate in (p, ROOT / "platforms" / platform, ROOT / "platforms" / f"{platform}.toml"):
        if candidate.is_file():
            return str(candidate.resolve())
    raise SweepInputError(f"platform '{platform}': no such file (nor platforms/{platform}.toml)")


def flatten_toml(table, prefix=""):
    for k, v in table.items():
        if isinstance(v, dict):
            yield from flatten_toml(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


def absolute_workload(workload, where):
    """The workload with every trace path made absolute (workers run elsewhere); a missing
    trace file or an empty phase raises SweepInputError."""
    phases = []
    for phase in workload.split(";"):
        path = trace_path(phase.strip())
        if not phase.strip():
            raise SweepInputError(f"{where}: workload '{workload}' has an empty phase")
        if path is not None:
            if not Path(path).is_file():
                raise SweepInputError(f"{where}: workload '{phase}': no such trace file '{path}'")
            phase = phase.replace(path, str(Path(path).resolve()), 1)
        phases.append(phase.strip())
    return ";".join(phases)


def plan(spec, schema, binary):
    """Resolves and checks one RunSpec; raises SweepInputError naming the key or file."""
    path = platform_path(spec.platform)
    config = schema.defaults()
    if path:
        try:
            table = tomllib.loads(Path(path).read_text())
        except tomllib.TOMLDecodeError as e:
            raise SweepInputError(f"{path}: {e}") from None
        for key, value in flatten_toml(table):
            config[key] = schema.parse(key, value, path)
    sets = []
    for key, value, where in spec.settings:
        config[key] = schema.parse(key, value, where)
        sets.append(f"{key}={format_value(config[key])}")
    workload = absolute_workload(spec.workload or config["workload.spec"], "--workload")
    build = build_id(binary, config)
    return PlannedRun(spec, config, workload if spec.workload else "", path,
                      run_hash(config, workload, build, spec.args), build, sets)
