"""The configuration keys of one ssdvp build, read from its own `ssdvp config-doc` (so the
sweep engine checks against the binary it will run, not a copy): each key's type, default,
range and choices, and the parsing of a value given as text (--set, --grid) or as a TOML value,
to the typed value ssdvp would hold. A bad key or value raises SweepInputError naming the key
and where it came from.

Leaves out the cross-key checks (gc_high >= gc_low, DRAM fit, ...): ssdvp makes them when the
run starts, and a run that fails them is recorded with status bad-input.
"""
import math
import re
import subprocess
from dataclasses import dataclass

from .errors import SweepInputError

_ROW = re.compile(r"^\| `([^`]+)` \| (bool|int|float|string|float list) \| `(.*?)` \| ([^|]*) \|")


@dataclass(frozen=True)
class KeySpec:
    key: str
    type: str            # bool, int, float, string, float list
    default: object
    low: float
    high: float
    choices: tuple       # of strings; empty = any string


def _number(text, where, key, integer):
    text = text.strip()
    try:
        if integer:
            return int(text, 10)
        value = float(text)
    except ValueError:
        raise SweepInputError(f"{where}: {key}: '{text}' is not {'an integer' if integer else 'a number'}") from None
    if not math.isfinite(value):
        raise SweepInputError(f"{where}: {key}: '{text}' is not a finite number")
    return value


class ConfigSchema:
    """Every configuration key of one ssdvp binary."""

    def __init__(self, specs):
        self.specs = {s.key: s for s in specs}

    @classmethod
    def from_binary(cls, binary):
        try:
            doc = subprocess.run([str(binary), "config-doc"], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise SweepInputError(f"{binary}: cannot read its configuration keys (ssdvp config-doc): {e}") from None
        return cls.from_markdown(doc)

    @classmethod
    def from_markdown(cls, doc):
        specs = []
        for line in doc.splitlines():
            m = _ROW.match(line)
            if not m:
                continue
            key, type_, default_text, range_text = m.group(1), m.group(2), m.group(3), m.group(4).strip()
            low, high, choices = -math.inf, math.inf, ()
            if " .. " in range_text:
                lo, hi = range_text.split(" .. ")
                low, high = float(lo), float(hi)
            elif range_text:
                choices = tuple(range_text.split("/"))
            spec = KeySpec(key, type_, None, low, high, choices)
            if type_ == "string":
                default_text = default_text[1:-1] if default_text.startswith('"') else default_text
            default = parse_value(spec, default_text, "config-doc", check_range=False)
            specs.append(KeySpec(key, type_, default, low, high, choices))
        if not specs:
            raise SweepInputError("ssdvp config-doc listed no configuration keys (has its format changed?)")
        return cls(specs)

    def spec(self, key, where):
        s = self.specs.get(key)
        if s is None:
            near = [k for k in self.specs if k.split(".")[-1] == key.split(".")[-1]]
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise SweepInputError(f"{where}: unknown configuration key '{key}'{hint}")
        return s

    def parse(self, key, value, where):
        """The typed value of `key` given as text or as a TOML value; raises SweepInputError."""
        spec = self.spec(key, where)
        return parse_value(spec, value, where)

    def defaults(self):
        return {k: s.default for k, s in self.specs.items()}


def parse_value(spec, value, where, check_range=True):
    key = spec.key
    if spec.type == "bool":
        if isinstance(value, bool):
            out = value
        elif str(value).strip() in ("true", "false"):
            out = str(value).strip() == "true"
        else:
            raise SweepInputError(f"{where}: {key}: '{value}' is not true or false")
    elif spec.type == "int":
        if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
            raise SweepInputError(f"{where}: {key}: '{value}' is not an integer")
        out = int(value) if isinstance(value, (int, float)) else _number(str(value), where, key, True)
    elif spec.type == "float":
        if isinstance(value, bool):
            raise SweepInputError(f"{where}: {key}: '{value}' is not a number")
        out = float(value) if isinstance(value, (int, float)) else _number(str(value), where, key, False)
    elif spec.type == "float list":
        if isinstance(value, (list, tuple)):
            items = list(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            items = [value]
        else:
            text = str(value).strip()
            if text.startswith("[") != text.endswith("]"):
                raise SweepInputError(f"{where}: {key}: '{value}' is not a number or a list [a, b]")
            text = text.strip("[]")
            items = [t for t in (p.strip() for p in text.split(",")) if t]
        if not items:
            raise SweepInputError(f"{where}: {key} is an empty list")
        out = [float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else _number(str(v), where, key, False)
               for v in items]
    else:
        if not isinstance(value, str):
            raise SweepInputError(f"{where}: {key}: expected a string, not {value!r}")
        out = value
        if check_range and spec.choices and out not in spec.choices:
            raise SweepInputError(f"{where}: {key} = \"{out}\" is not one of {'/'.join(spec.choices)}")
    if check_range and spec.type in ("int", "float", "float list"):
        for v in out if isinstance(out, list) else [out]:
            if not spec.low <= v <= spec.high:
                raise SweepInputError(f"{where}: {key} = {v:g} is outside {spec.low:g} .. {spec.high:g}")
    return out
