"""scripts/host_ftl_costs.py on four of its workloads (reads, writes with GC, a mix, the ring): every firmware function its ISS
profiles show does a kind of work the script names, every kind those workloads charge gets a
positive instruction count, and the defaults of host.ftl.cost.* are within a factor of two of
what these four measure (the defaults come from all twelve workloads)."""
import os
import re
import subprocess
import sys
import tempfile

root = os.path.join(os.path.dirname(__file__), "..", "..")
binary = os.environ["SSDVP_BINARY"]
with tempfile.TemporaryDirectory() as out:
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "host_ftl_costs.py"), "--quick", "--binary", binary,
                        "--out", out], capture_output=True, text=True)
print(p.stdout)
if p.returncode != 0:
    sys.exit("host_ftl_costs.py failed: " + p.stderr)
measured = {k: float(v) for k, v in re.findall(r"host\.ftl\.cost\.(\w+)_instructions = (\d+)", p.stdout)}
doc = subprocess.run([binary, "config-doc"], capture_output=True, text=True, check=True).stdout
defaults = {k: float(v) for k, v in re.findall(r"host\.ftl\.cost\.(\w+)_instructions` \| float \| `([\d.]+)`", doc)}
bad = []
for k in ["loop", "host_cmd", "sector", "flash_submit", "flash_done", "dma_submit", "gc_sector"]:
    if measured.get(k, 0) <= 0:
        bad.append(f"{k}: nothing measured")
    elif k in defaults and not (defaults[k] / 2 <= measured[k] <= defaults[k] * 2):
        bad.append(f"{k}: the default {defaults[k]:.0f} is not within a factor of two of {measured[k]:.0f}")
if not defaults:
    bad.append("no host.ftl.cost defaults found in config-doc")
if bad:
    sys.exit("host FTL costs: " + "; ".join(bad))
print("host FTL costs: passed")
