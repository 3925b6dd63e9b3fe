// The schema of every configuration key, and the generated reference (docs/config.md).
#include <cmath>
#include <sstream>

#include "models/common/config.h"

namespace ssdvp {

namespace {
constexpr double kInf = 1e18;
using K = KeyType;
}  // namespace

const std::vector<KeySpec>& config_schema() {
  static const std::vector<KeySpec> schema = {
      // ---------------------------------------------------------------- platform
      {"platform.name", K::String, "\"default\"", 0, 0, nullptr, "Name printed in the summary and the JSON."},

      // ---------------------------------------------------------------- host
      {"host.queues", K::Int, "8", 1, 64, nullptr, "NVMe-like submission/completion queue pairs. As Linux blk-mq maps CPUs to hardware queues, host CPU c submits on queue c mod queues."},
      {"host.cpus", K::Int, "0", 0, 1024, nullptr, "Host CPUs the workload's threads run on (0: as many as host.queues, one queue per CPU). A thread's commands go to the queue of the CPU it runs on at the time."},
      {"host.cpu.types", K::String, "\"\"", 0, 0, nullptr, "Host CPU model (docs/multicore.md): thread types as I/O:CPU percentages of a cycle, comma-separated (the MT-FTL paper: \"90:10,80:20,70:30,60:40,50:50,40:60,20:80,0:100\"); the workload's threads take them in order, as evenly as they go. Each thread submits its requests during the I/O share of its cycle and wants the CPU for the rest; a CPU is shared by the threads in their CPU phase on it. Empty: no CPU model (threads do I/O only). The phases share the host CPUs with the host I/O stack's and a host FTL's work there (docs/multicore.md)."},
      {"host.cpu.cycle_ms", K::Double, "3000", 0.001, kInf, nullptr, "Host CPU model: a thread's cycle of one I/O phase and one CPU phase, ms (the paper: 3 s); thread t's cycles start t/threads of a cycle late."},
      {"host.cpu.io_us", K::Double, "5", 0, kInf, nullptr, "Host CPU model with host.stack = \"none\": CPU time a request costs its thread (submission and completion), us, as a delay: that long times the pieces of work sharing its CPU. A modelled stack charges its own CPU time instead (host.stack.submit_ns, host.stack.irq_ns).", "host.stack=none"},
      {"host.cpu.balance_ms", K::Double, "4", 0.001, kInf, nullptr, "Host CPU model: period of the OS's periodic balancing round, ms: when the busiest CPU runs two or more CPU-phase threads more than the idlest, one moves (CPU load only; threads in their I/O phase are not moved). A CPU that runs out of work also runs a round (newly idle: it pulls a thread from a CPU running two or more)."},
      {"host.migration", K::String, "\"none\"", 0, 0, "none|greedy", "MT-FTL task migration (needs host.cpu.types): greedy moves, every host.migration_rounds balancer rounds, the thread with the most write-buffer insertions on the CPU with the most to the CPU with the fewest."},
      {"host.migration_rounds", K::Int, "30000", 1, 1e12, nullptr, "Host CPU model: OS balancer rounds (periodic, host.cpu.balance_ms; newly idle; and the placement at each wake-up of a thread by its completion) between two migrations (the MT-FTL paper: 30,000); the insertions per CPU of each such period are recorded (run.json host_cpu.insert_series) with or without migration."},
      {"host.migration_select_instructions", K::Double, "200", 0, kInf, nullptr, "Host CPU model: the migration's selection, instructions per thread and per CPU whose insertion count it examines, run on the CPU whose round it is at host.cpu.clock_mhz and host.cpu.ipc, not preempted. 200: chosen (a task-list walk with a counter read and compare each, cache misses included; docs/multicore.md)."},
      {"host.ftl", K::String, "\"none\"", 0, 0, "none|pblk|mtftl", "The FTL on the host (docs/host-ftl.md), over an Open-Channel device (device.interface = \"ocssd\") or a zoned one (\"zns\", a zone one of its blocks: device.zns.dies_per_zone = 1, stripes_per_zone = 1, spare_stripes = 0, and 3 open and active zones a die; a log-structured host FTL over zones): the project's FTL sources run by host threads on the host CPUs. pblk: one ring (ftl.write_buffer_mib) shared by every CPU under one spin lock, a user thread's write copied into it on its own CPU, one write-back thread (host.ftl.writeback_cpu), as Linux's pblk; mtftl: a ring per CPU (host.cpus at most 8), each drained by a write-back thread pinned to its CPU, as MT-FTL. none: the device runs the FTL."},
      {"host.ftl.writeback_cpu", K::Int, "0", 0, 4095, nullptr, "host.ftl = pblk: the CPU its write-back thread runs on (and where the device's completions to the FTL are handled)."},
      {"host.ftl.gc_cpu", K::Int, "0", 0, 4095, nullptr, "host.ftl: the CPU its GC (background) thread runs on."},
      {"host.ftl.memory_mib", K::Int, "1024", 16, 3072, nullptr, "host.ftl: host memory for the FTL's map, rings and tables, MiB (the FTL addresses 3 GiB at most: a 32-bit map)."},
      {"host.ftl.copy_gbps", K::Double, "5", 0.01, kInf, nullptr, "host.ftl: one CPU's memory copy bandwidth, GB/s: a write's data copied into the ring, a read's out of it, cost the copying CPU bytes / this. 5: chosen, a single core's STREAM copy bandwidth on servers of the write-buffer study's generation is 4-8 GB/s."},
      {"host.ftl.cost.loop_instructions", K::Double, "333", 0, kInf, nullptr, "host.ftl: instructions of one FTL section that found work (the event-loop pass's share), as the RV32 firmware executes them on the ISS: the instructions of the firmware functions that do that kind of work over twelve workloads, divided by the units native runs of the same workloads charged (scripts/host_ftl_costs.py measures them; docs/host-ftl.md has the table)."},
      {"host.ftl.cost.host_cmd_instructions", K::Double, "743", 0, kInf, nullptr, "host.ftl: instructions to decode and start one command (ISS-measured: scripts/host_ftl_costs.py)."},
      {"host.ftl.cost.sector_instructions", K::Double, "146", 0, kInf, nullptr, "host.ftl: instructions per 4 KiB sector of a command (ring insert with its map update, or a read's lookup; ISS-measured: scripts/host_ftl_costs.py)."},
      {"host.ftl.cost.flash_submit_instructions", K::Double, "566", 0, kInf, nullptr, "host.ftl: instructions to build one flash operation (ISS-measured: scripts/host_ftl_costs.py)."},
      {"host.ftl.cost.flash_done_instructions", K::Double, "181", 0, kInf, nullptr, "host.ftl: instructions to handle one flash completion (ISS-measured: scripts/host_ftl_costs.py)."},
      {"host.ftl.cost.dma_submit_instructions", K::Double, "81", 0, kInf, nullptr, "host.ftl: instructions to set up one data copy or completion (ISS-measured: scripts/host_ftl_costs.py)."},
      {"host.ftl.cost.gc_sector_instructions", K::Double, "2600", 0, kInf, nullptr, "host.ftl: GC's instructions per moved sector (ISS-measured: scripts/host_ftl_costs.py)."},
      {"host.ftl.full_ring", K::String, "\"yield\"", 0, 0, "yield|sleep", "host.ftl: what a user thread does while its write waits for room in a full ring. yield: it retries and yields the CPU, as pblk's pblk_write_to_cache does (io_schedule() and retry): it stays runnable, takes its share of its CPU until room appears and counts as load for the OS balancer (host.cpu.types). sleep: it sleeps until room appears (a wait queue), taking no CPU."},
      {"host.ftl.writeback_sector_instructions", K::Double, "0", 0, kInf, nullptr, "host.ftl: instructions a write-back thread spends per 4 KiB sector it programs beyond what the project's FTL spends (the host.ftl.cost.* kinds): what a kernel host FTL adds per sector, as pblk builds a bio page and a PPA-list entry for each one, and what a device emulated on the same host (the MT-FTL paper's FEMU) takes from its CPUs. 0: the project's FTL alone, as measured on the ISS. No published per-sector figure is known for either; the MT-FTL study sweeps it (docs/results/mtftl.md). Run outside the FTL's lock, preemptible, category writeback."},
      {"host.cpu.sockets", K::Int, "1", 1, 64, nullptr, "Sockets the host CPUs are in (host.cpus divided evenly): a spin lock handed to a CPU of another socket costs the new holder host.cpu.socket_handoff_ns."},
      {"host.cpu.socket_handoff_ns", K::Double, "200", 0, kInf, nullptr, "CPU time a lock handed to another socket costs its new holder, ns: the lock's and the ring's pointers' cache lines cross the interconnect, each of the order of 100 ns (cache-to-cache transfers across QPI, Molka et al., PACT 2009; docs/references.md#molka)."},
      {"host.cpu.clock_mhz", K::Double, "2400", 1, 10000, nullptr, "Host CPU clock, MHz (2400: the write-buffer study's Xeon E7-8870)."},
      {"host.cpu.ipc", K::Double, "1", 0.01, 16, nullptr, "Host CPU instructions per cycle for the FTL's code (host.ftl.cost.*_instructions / this / clock = its time). 1: chosen (pointer-chasing table code on an out-of-order core of that generation)."},
      {"host.thread_cpus", K::String, "\"\"", 0, 0, nullptr, "The CPU each host thread (workload stream, e.g. fio job) starts on, as a comma list with one entry per thread (\"0,0,1,1\"); empty: thread t on CPU t mod host.cpus."},
      {"host.queue_entries", K::Int, "1024", 2, 65536, nullptr, "Entries per submission queue (the host never has more than queue_entries-1 commands outstanding on a queue)."},
      {"host.link_mbps", K::Double, "3938", 1, kInf, nullptr, "PCIe link bandwidth per direction, MB/s (10^6 B/s). 3938 = Gen3 x4."},
      {"host.link_latency_ns", K::Double, "500", 0, kInf, nullptr, "One-way PCIe latency (TLP through root complex and controller), ns."},
      {"host.tlp_overhead_bytes", K::Int, "24", 0, 4096, nullptr, "Header/framing bytes added per TLP (per host.max_payload_bytes of payload, or less) on the link."},
      {"host.max_payload_bytes", K::Int, "4096", 128, 4096, nullptr, "PCIe Max_Payload_Size: a transfer is split into TLPs of at most this many payload bytes, each paying host.tlp_overhead_bytes (a power of two, 128 .. 4096). Root complexes commonly set 256 (the drive presets do); the default 4096 keeps the default platform's published figures."},
      {"host.irq_ns", K::Double, "1000", 0, kInf, nullptr, "With host.stack = \"none\": a fixed delay from the completion entry written to the host thread running (MSI-X delivery + interrupt handler), no CPU time, ns. A modelled stack charges host.stack.irq_ns of CPU time instead.", "host.stack=none"},
      {"host.submit_ns", K::Double, "0", 0, kInf, nullptr, "With host.stack = \"none\": a fixed delay per command before the doorbell write, no CPU time, ns. A modelled stack charges host.stack.submit_ns of CPU time instead.", "host.stack=none"},
      {"host.stack", K::String, "\"interrupt\"", 0, 0, "none|interrupt|poll", "The host I/O stack (docs/host-stack.md). none: host.submit_ns and host.irq_ns are fixed delays with no CPU time (every run before the stack existed). interrupt (default): every command costs host.stack.submit_ns of CPU time on its thread's CPU; the thread sleeps, and the completion queue's interrupt handles each completion on the queue's CPU (host.stack.irq_ns, not preempted). poll: the thread spins on its own CPU until its completion arrives (the spin is CPU time) and reaps it there (host.stack.poll_ns), as Linux's polled queues (io_uring IOPOLL, RWF_HIPRI) do; not with host.ftl (pblk completes its bios itself)."},
      {"host.stack.submit_ns", K::Double, "2000", 0, kInf, nullptr, "host.stack = interrupt | poll: CPU time per command on the submitting thread's CPU (system call, block layer, NVMe driver), shared with the other threads there, ns. Default chosen (docs/host-stack.md says why).", "host.stack=interrupt|poll"},
      {"host.stack.irq_ns", K::Double, "4630", 0, kInf, nullptr, "host.stack = interrupt: CPU time of one interrupt-driven completion on its completion queue's CPU (queue q: CPU q): the handler, the request's completion, the wake-up of the sleeping thread, ns; with a host FTL, each interrupt of the Open-Channel device. Default: what interrupt-driven completion cost over polling in Yang, Minturn and Hady (FAST 2012; docs/references.md#yang-poll), 9.01 - 4.38 us.", "host.stack=interrupt"},
      {"host.stack.poll_ns", K::Double, "0", 0, kInf, nullptr, "host.stack = poll: CPU time to reap one completion, ns. Default 0: the measurement behind host.stack.irq_ns gives the difference between the two paths, all of it put on the interrupt path (docs/host-stack.md).", "host.stack=poll"},
      {"host.max_transfer_kib", K::Int, "1024", 4, 1024, nullptr, "Largest command (MDTS); larger requests are split by the host driver, as a block layer does. Multiple of 4."},

      // ---------------------------------------------------------------- device (what the host sees)
      {"device.volatile_write_cache", K::Bool, "true", 0, 0, nullptr, "The drive reports a volatile write cache (NVMe's VWC feature, on): a write completes once its data is in the DRAM write buffer and is durable only after a later flush (or when sent with FUA). false: every write completes only once its data is on flash, as a drive without a volatile cache does (docs/reliability.md)."},

      {"device.interface", K::String, "\"conventional\"", 0, 0, "conventional|ocssd|zns", "The command set the drive answers: conventional, a block device whose firmware runs the FTL; ocssd, an Open-Channel SSD 2.0 device (docs/ocssd.md): the geometry, the chunk log, vector chunk reset, write and read, thin firmware with no map, GC or write buffer, the FTL on the host. One cell type only (no nand.slc_dies, no pSLC cache). ssdvp run drives it through a host FTL (host.ftl = pblk or mtftl, docs/host-ftl.md); the tests also drive it directly (testbenches/model/test_ocssd_device.cpp). zns, an NVMe Zoned Namespace device (docs/zns.md): zones over the flash (device.zns.*), a zone map in the firmware instead of a page map, writes at the write pointer, Zone Append, Zone Management Send and Receive; no GC (a reset erases the zone). ssdvp run drives it with fio's zoned mode (fio:...,zonemode=zbd, docs/traces.md); the tests also drive it directly (testbenches/model/test_zns_device.cpp). One cell type only."},
      {"device.ocssd_open_chunks_per_pu", K::Int, "4", 1, 65535, nullptr, "Open-Channel device: the open chunks per parallel unit it reports it keeps (the geometry's maxocpu; maxoc is this times the units). Reported, not enforced: the spec leaves the device's answer to one more open. 4: chosen (pblk keeps one chunk per unit open for user data and one for GC), not from a device."},
      {"device.zns.dies_per_zone", K::Int, "0", 0, 65536, nullptr, "Zoned device: the dies a zone's writes spread over (consecutive in the firmware's numbering, way by way across the channels; zones go round the groups). 0: every die (a zone stripes the whole drive, as large-zone drives do). Must divide nand.channels x nand.ways."},
      {"device.zns.stripes_per_zone", K::Int, "1", 1, 65536, nullptr, "Zoned device: a zone's size in stripes, a stripe being the same block on every plane of each of its dies; the zone capacity is stripes x dies x pages per block x planes x sectors per page."},
      {"device.zns.spare_stripes", K::Int, "0", 0, 65536, nullptr, "Zoned device: blocks per plane kept back from the zones (spares, a stripe each: one block on every plane of every die). The first two take the power-loss dump in turn (the windows and the zone map at a power failure: at least 2 for --power-cut); bad blocks are not remapped to them yet (docs/zns.md)."},
      {"device.zns.pow2_zone_size", K::Bool, "true", 0, 0, nullptr, "Zoned device: the zone size is the capacity rounded up to a power of two, as Linux requires of a zoned block device (the LBAs between capacity and size are never writable). false: size = capacity."},
      {"device.zns.max_open", K::Int, "14", 0, 1048576, nullptr, "Zoned device: open zones at most (implicitly or explicitly opened; the Identify's MOR + 1). 0: no limit. 14: the Western Digital Ultrastar DC ZN540's (docs/references.md#zn540), chosen."},
      {"device.zns.max_active", K::Int, "14", 0, 1048576, nullptr, "Zoned device: active zones at most (opened or closed; MAR + 1), at least device.zns.max_open. 0: no limit. 14: the ZN540's, chosen."},
      {"device.zns.zasl_kib", K::Int, "1024", 4, 1048576, nullptr, "Zoned device: the largest Zone Append, KiB (a power of two of 4 KiB sectors, at most a zone's capacity; the controller's ZASL). 1024: the host interface's largest command."},
      {"device.plp_energy_mj", K::Double, "0", 0, 1e6, nullptr, "Power-loss protection: energy in mJ the hold-up capacitors give the drive after its supply fails (with --power-cut). The firmware stops taking host commands and puts everything acknowledged on flash; if it finishes before the energy runs out (device.plp_power_w), every write acknowledged before the failure is durable. 0: no power-loss protection (docs/reliability.md)."},
      {"device.plp_power_w", K::Double, "8", 0.01, 1000, nullptr, "Power-loss protection: what the drive draws from its capacitors while it dumps, W; the hold-up time is device.plp_energy_mj / this (plausible for an enterprise NVMe drive, not from a datasheet)."},
      {"device.nor_kib", K::Int, "1024", 64, 65536, nullptr, "Size of the controller's SPI NOR in KiB (a power of two): the non-volatile store where the firmware keeps its bad-block table and its log of erase counts (docs/reliability.md). It must hold a bit per superblock in a quarter of it and, in each of two other quarters, two bytes per superblock plus room for the log: the configuration is refused with the size it needs otherwise. 1024 (an 8 Mbit part) is plausible, not from a datasheet."},

      // ---------------------------------------------------------------- controller DRAM
      {"dram.size_mib", K::Int, "1024", 16, 3072, nullptr, "Controller DRAM capacity, MiB (firmware tables, rings, buffers; the RV32 firmware addresses at most 3 GiB)."},
      {"dram.bandwidth_mbps", K::Double, "12800", 1, kInf, nullptr, "DRAM bandwidth shared by all DMA engines, MB/s."},
      {"dram.latency_ns", K::Double, "60", 0, kInf, nullptr, "Latency of a DMA burst's first data, ns."},
      {"dram.firmware_reserved_mib", K::Int, "4", 1, 3071, nullptr, "DRAM kept for the platform's own blocks (config, geometry, debug) before the firmware heap; a large value puts the heap high in the address space (the tests place it above 0xC000_0000)."},

      // ---------------------------------------------------------------- NAND geometry
      {"nand.channels", K::Int, "8", 1, 64, nullptr, "Flash channels."},
      {"nand.ways", K::Int, "4", 1, 32, nullptr, "Dies (ways) per channel."},
      {"nand.planes", K::Int, "2", 1, 8, nullptr, "Planes per die."},
      {"nand.blocks_per_plane", K::Int, "512", 8, 65535, nullptr, "Blocks per plane."},
      {"nand.page_bytes", K::Int, "4096", 4096, 65536, nullptr, "Page data size, a multiple of 4096 (the host sector)."},
      {"nand.oob_bytes", K::Int, "128", 16, 4096, nullptr, "Spare (OOB) bytes per page; must hold 8 bytes per 4 KiB sector."},
      {"nand.cell", K::String, "\"mlc\"", 0, 0, "slc|mlc|tlc", "Cell type of the dies (see nand.slc_dies for mixed devices)."},
      {"nand.slc_dies", K::Int, "0", 0, 4096, nullptr, "Mixed devices: the first N dies (die = way*channels + channel) are SLC, the rest nand.cell."},
      {"nand.slc.pages_per_block", K::Int, "64", 1, 4096, nullptr, "Pages per block of an SLC die."},
      {"nand.slc.blocks_per_plane", K::Int, "0", 0, 65535, nullptr, "Blocks per plane of an SLC die, so that a mixed device's SLC and MLC regions are sized independently; 0 = nand.blocks_per_plane. Needs nand.slc_dies > 0."},
      {"nand.slc.t_read_us", K::DoubleList, "[20]", 0, kInf, nullptr, "SLC array read time tR, us."},
      {"nand.slc.t_prog_us", K::DoubleList, "[200]", 0, kInf, nullptr, "SLC program time tPROG, us."},
      {"nand.slc.t_erase_us", K::Double, "2000", 0, kInf, nullptr, "SLC block erase time tBERS, us."},
      {"nand.mlc.pages_per_block", K::Int, "128", 2, 4096, nullptr, "Pages per block of an MLC die."},
      {"nand.mlc.t_read_us", K::DoubleList, "[60]", 0, kInf, nullptr, "MLC tR, us: one value, or [LSB, MSB] by page type (page p has type p mod 2)."},
      {"nand.mlc.t_prog_us", K::DoubleList, "[1350]", 0, kInf, nullptr, "MLC tPROG, us: one value, or [LSB, MSB]."},
      {"nand.mlc.t_erase_us", K::Double, "3000", 0, kInf, nullptr, "MLC tBERS, us."},
      {"nand.tlc.pages_per_block", K::Int, "192", 3, 4096, nullptr, "Pages per block of a TLC die."},
      {"nand.tlc.t_read_us", K::DoubleList, "[90]", 0, kInf, nullptr, "TLC tR, us: one value, or [LSB, CSB, MSB] (page p has type p mod 3)."},
      {"nand.tlc.t_prog_us", K::DoubleList, "[3000]", 0, kInf, nullptr, "TLC tPROG, us: one value, or [LSB, CSB, MSB]."},
      {"nand.tlc.t_erase_us", K::Double, "5000", 0, kInf, nullptr, "TLC tBERS, us."},
      {"nand.pslc.blocks_per_plane", K::Int, "0", 0, 65535, nullptr, "pSLC cache: the first N blocks of every plane of every MLC/TLC die run in SLC mode (1 bit per cell: nand.pslc timing and 1/2 or 1/3 of the die's pages per block): they leave the factory in SLC mode and the firmware erases them with SSD_FDF_SLC_MODE (the die takes a block's mode from each erase). A static cache carved out of the raw capacity: the logical capacity is what the remaining blocks hold less ftl.op. Needs MLC/TLC dies and ftl.placement; 0 = none."},
      {"nand.pslc.t_read_us", K::DoubleList, "[30]", 0, kInf, nullptr, "tR of a block in SLC mode on an MLC/TLC die, us."},
      {"nand.pslc.t_prog_us", K::DoubleList, "[300]", 0, kInf, nullptr, "tPROG of a block in SLC mode on an MLC/TLC die, us."},
      {"nand.pslc.t_erase_us", K::Double, "0", 0, kInf, nullptr, "tBERS of a block in SLC mode, us; 0 = the die's own (nand.mlc/tlc.t_erase_us)."},
      {"nand.multiplane_extra_us", K::Double, "0", 0, kInf, nullptr, "Extra array time of a multi-plane operation over a single-plane one, us."},
      {"nand.independent_plane_reads", K::Bool, "false", 0, 0, nullptr, "Independent multi-plane reads (as 3D NAND with per-plane read circuits offers): a read occupies only the planes of its mask, so reads of other planes of the die may start while it runs; a program or erase still takes the whole die, and waits for the reads in flight. The channel (TLM and RTL) issues a die's operations in order and keeps up to 4 of them in flight. false = a read makes the whole die busy."},
      {"nand.paired_page_loss", K::Bool, "false", 0, 0, nullptr, "Power loss during the program of an upper page (MLC/TLC: page p with p mod bits-per-cell > 0) also leaves the lower pages of its word line (p-1 ... ) unreadable, as on parts that program a word line's pages in place (docs/reliability.md)."},
      {"nand.uncorrectable_per_million", K::Double, "0", 0, 1000000, nullptr, "Fault injection: sector reads per million that fail ECC (reported as media errors)."},
      {"nand.corrected_per_million", K::Double, "0", 0, 1000000, nullptr, "Sector reads per million that need ECC correction (extra decode time nand.ecc_retry_us)."},
      {"nand.ecc_retry_us", K::Double, "0", 0, kInf, nullptr, "Extra time of a read that needed ECC correction, us."},
      {"nand.rber.base", K::Double, "0", 0, 1, nullptr, "Raw bit error rate of a fresh block's fresh data (models/nand/rber_model.h): RBER = base + wear_coeff * N^wear_exp + retention_coeff * N^retention_wear_exp * t^retention_exp, N the block's P/E cycles, t the data's age in hours. A read whose RBER is over nand.rber.ecc_limit needs read-retry steps, each another tR (plus nand.ecc_retry_us). 0 with both coefficients 0: the model is off (reads fail only by nand.uncorrectable_per_million / nand.corrected_per_million)."},
      {"nand.rber.wear_coeff", K::Double, "0", 0, 1, nullptr, "RBER model: the wear term's coefficient (alpha)."},
      {"nand.rber.wear_exp", K::Double, "1", 0, 10, nullptr, "RBER model: the wear term's exponent of the P/E cycles (k)."},
      {"nand.rber.retention_coeff", K::Double, "0", 0, 1, nullptr, "RBER model: the retention term's coefficient (beta)."},
      {"nand.rber.retention_wear_exp", K::Double, "1", 0, 10, nullptr, "RBER model: the retention term's exponent of the P/E cycles (m): worn cells leak faster."},
      {"nand.rber.retention_exp", K::Double, "0.5", 0, 10, nullptr, "RBER model: the retention term's exponent of the data's age in hours (n)."},
      {"nand.rber.age_offset_hours", K::Double, "0", 0, 1e7, nullptr, "RBER model: every page reads as if written this many hours before it was (a drive whose data has sat that long; a run covers seconds). The age is the block's: from its first program after an erase."},
      {"nand.rber.ecc_limit", K::Double, "1e-3", 1e-9, 0.5, nullptr, "RBER model: the highest RBER ECC decodes in one read (plausible for a 2x-nm MLC's BCH/LDPC hard decoding, not from a datasheet)."},
      {"nand.rber.retry_gain", K::Double, "2", 1.000001, 1000, nullptr, "RBER model: each read-retry step (a read with shifted read voltages) divides the RBER the decoder sees by this."},
      {"nand.rber.max_retries", K::Int, "8", 0, 64, nullptr, "RBER model: read-retry steps before a page is uncorrectable (a media error)."},
      {"nand.fault_seed", K::Int, "7", 0, kInf, nullptr, "Seed of the fault-injection random stream."},
      {"nand.factory_bad_permille", K::Double, "0", 0, 500, nullptr, "Factory bad blocks: blocks per thousand of every plane marked bad from the factory (chosen by nand.fault_seed): their first page reads the bad-block marker (all-zero spare), and every program or erase of them fails. The firmware finds them when it formats the drive (docs/reliability.md)."},
      {"nand.program_fail_per_million", K::Double, "0", 0, 1000000, nullptr, "Page programs per million (per plane) that fail: the page reads back uncorrectable and the block is bad from then on (every later program or erase of it fails)."},
      {"nand.erase_fail_per_million", K::Double, "0", 0, 1000000, nullptr, "Block erases per million that fail: the block is left neither erased nor intact and is bad from then on."},
      {"nand.endurance_pe", K::Int, "0", 0, 10000000, nullptr, "Rated program/erase cycles of a block: past this many erases its program and erase failure rates are multiplied by nand.worn_fail_factor; 0 = no limit."},
      {"nand.worn_fail_factor", K::Double, "10", 1, 1000000, nullptr, "Factor on the program and erase failure rates of a block erased nand.endurance_pe times or more."},
      {"nand.fail_at", K::String, "\"\"", 0, 0, nullptr, "Failures injected at a given block and time, comma-separated: `program:DIE:BLOCK[@US]` or `erase:DIE:BLOCK[@US]`: the first program (erase) of that block of the die (any plane) starting at or after US microseconds (default 0) fails, and the block is bad from then on. DIE = way * nand.channels + channel."},

      // ---------------------------------------------------------------- channel
      {"channel.model", K::String, "\"tlm\"", 0, 0, "tlm|rtl", "Channel implementation: the TLM model, or the Verilated RTL controller (rtl/nand_channel_ctrl.sv; at most 16 ways)."},
      {"channel.rtl_trace", K::String, "\"\"", 0, 0, nullptr, "channel.model = rtl: write an FST waveform of every channel's controller to this path (channel N adds .N before .fst); empty = none."},
      {"channel.rtl_monitor", K::Bool, "false", 0, 0, nullptr, "channel.model = rtl: run the NAND protocol monitor on every channel's pins (models/flash/nand_protocol_monitor.h: the bus cycles decoded into operations, checked against the interface's rules and the descriptors; a violation ends the run naming its rule and cycle). Bus phases are then clocked cycle by cycle, not skipped: the RTL channel runs hundreds of times slower on a busy workload (docs/rtl.md). Needs channel.cmd_addr_ns and data_setup_ns of at least 3 bus cycles, status_ns of 2."},
      {"channel.bus_mbps", K::Double, "400", 1, kInf, nullptr, "Data rate of a channel's bus, MB/s (ONFI NV-DDR2 200 MHz x8 = 400). One bus cycle moves one byte: its period, 1/bus_mbps rounded to a picosecond, is the clock both channel models work on."},
      {"channel.cmd_addr_ns", K::Double, "100", 0, kInf, nullptr, "Bus time of the command and address cycles of one plane operation, ns; rounded to whole bus cycles (1..65535)."},
      {"channel.data_setup_ns", K::Double, "100", 0, kInf, nullptr, "Bus time around each data transfer (tADL/tWHR/tRR, column change), ns; rounded to whole bus cycles (0..65535)."},
      {"channel.status_ns", K::Double, "50", 0, kInf, nullptr, "Bus time of the status read that ends a program or erase, ns; rounded to whole bus cycles (1..65535)."},

      // ---------------------------------------------------------------- flash controller
      {"fctl.desc_ns", K::Double, "50", 0, kInf, nullptr, "Flash controller time to fetch and decode one descriptor, ns (with channel.model = \"rtl\": at least one bus cycle; it is how far the RTL may run ahead of SystemC time)."},
      {"fctl.cpl_ns", K::Double, "50", 0, kInf, nullptr, "Flash controller time to post one completion, ns (with channel.model = \"rtl\": at least one bus cycle)."},

      // ---------------------------------------------------------------- firmware
      {"firmware.mode", K::String, "\"native\"", 0, 0, "native|iss", "How the firmware runs: native (host-compiled, time from the cost model below) or iss (cross-compiled for RV32IMAC and run on Unicorn, time from instructions)."},
      {"firmware.image", K::String, "\"\"", 0, 0, nullptr, "firmware.mode = iss: the ELF32 image to run; empty = the one built with ssdvp (build/ftl-sw-rv32/ssdvp-fw.elf)."},
      {"firmware.clock_mhz", K::Double, "800", 1, 10000, nullptr, "firmware.mode = iss: core clock, MHz."},
      {"firmware.cpi", K::Double, "1.0", 0.1, 100, nullptr, "firmware.mode = iss: cycles per instruction (every instruction alike)."},
      {"firmware.profile", K::Bool, "false", 0, 0, nullptr, "firmware.mode = iss: count the instructions of every firmware function (results: firmware.profile)."},
      {"firmware.quantum_instructions", K::Int, "1000", 1, 100000000, nullptr, "firmware.mode = iss: the global quantum of the cores' tlm_quantumkeeper, in instructions (this many x CPI / clock): a core synchronises with the rest of the platform at multiples of it, at the first basic-block boundary at or after the sync point, or exactly there with firmware.exact_quanta."},
      {"firmware.exact_quanta", K::Bool, "false", 0, 0, nullptr, "firmware.mode = iss: synchronise exactly at the quantum keeper's sync points (a check before every instruction: slower, see docs/firmware.md) instead of at the first basic-block boundary at or after them. Time and MMIO timing are exact per instruction either way."},
      {"firmware.skip_idle_syncs", K::Bool, "true", 0, 0, nullptr, "firmware.mode = iss: where a core reaches a sync point and no other process has activity up to it and no interrupt is pending, run on to the next one in the same ISS call instead of synchronising (the sync would change nothing: same results, fewer ISS calls; run.json counts firmware.cores[].syncs_skipped). false: stop at every sync point."},
      {"firmware.cores", K::Int, "1", 1, 8, nullptr, "Firmware cores running the FTL (natively or on ISS cores, each with its own SRAM): each serves the submission queues q with q mod cores = its index, with its own write buffer (ftl.write_buffer_mib is split between them) and writer; the map, GC and flash are shared under one lock (docs/multicore.md). At most host.queues."},
      {"firmware.cost.loop_ns", K::Double, "40", 0, kInf, nullptr, "Native cost model: an event-loop pass that found work, ns."},
      {"firmware.cost.host_cmd_ns", K::Double, "300", 0, kInf, nullptr, "Native cost model: decode and dispatch one host command, ns."},
      {"firmware.cost.sector_ns", K::Double, "40", 0, kInf, nullptr, "Native cost model: per 4 KiB sector of a host command (map lookup, buffer), ns."},
      {"firmware.cost.flash_submit_ns", K::Double, "100", 0, kInf, nullptr, "Native cost model: build and submit one flash descriptor, ns."},
      {"firmware.cost.flash_done_ns", K::Double, "80", 0, kInf, nullptr, "Native cost model: handle one flash completion, ns."},
      {"firmware.cost.dma_submit_ns", K::Double, "80", 0, kInf, nullptr, "Native cost model: build and submit one host DMA descriptor, ns."},
      {"firmware.cost.gc_sector_ns", K::Double, "30", 0, kInf, nullptr, "Native cost model: GC bookkeeping per moved sector, ns."},
      {"firmware.cost.lock_spin_ns", K::Double, "20", 0.1, kInf, nullptr, "Native cost model: one turn of a core's spin on the firmware lock held by another core, ns (firmware.cores > 1)."},

      // ---------------------------------------------------------------- FTL
      {"ftl.mapping", K::String, "\"opt\"", 0, 0, "opt|dftl|part|part-sched|writeopt|adaptive", "Mapping scheme: opt (whole page map in DRAM); dftl (translation pages on flash, page-granular mapping cache with one LRU); part (clean and dirty regions, a read never writes); part-sched (part + read-priority scheduling); writeopt (part-sched with an entry-level dirty cache and greedy batch update); adaptive (writeopt with a PID-controlled clean/dirty split and a scheduler that keeps taking writes). docs/ftl-guide.md describes them."},
      {"ftl.cmt_ratio", K::Double, "0.2", 0.0001, 1, nullptr, "Demand-based mappings: the mapping cache's DRAM as a fraction of the whole map's bytes (4 bytes per logical sector)."},
      {"ftl.cmt_clean_ratio", K::Double, "0.5", 0.01, 0.99, nullptr, "part and later: the clean region's share of the mapping cache (the rest holds dirty pages or dirty entries); adaptive: where its controller starts."},
      {"ftl.sched", K::String, "\"auto\"", 0, 0, "auto|bypass|fifo|write-stop|adaptive", "Host command scheduling: bypass (reads pass writes waiting for buffer space), fifo (commands start in arrival order), write-stop (bypass, and a full write buffer stops draining while reads are pending: PTSD), adaptive (bypass, and one program per die while reads are pending). auto: bypass for opt, dftl and part (PTSD's baseline: a write that fills the buffer starts the flush and does not wait; reads then queue behind the flush's flash work), write-stop for part-sched and writeopt, adaptive for adaptive."},
      {"ftl.adapt_window", K::Int, "4096", 16, 100000000, nullptr, "adaptive: mapping-cache accesses between two steps of the clean/dirty split controller."},
      {"ftl.op", K::Double, "0.07", 0, 0.9, nullptr, "Over-provisioning: fraction of the physical space not exported (logical = physical x (1 - op), less the minimum spare GC needs; with ftl.placement lapt, slc-only or slc-direct on SLC dies, at most what the MLC dies hold beside their GC spare, since those policies move all data there)."},
      {"ftl.logical_sectors", K::Int, "0", 0, 4294967295.0, nullptr, "The exported capacity in 4 KiB sectors, set outright (devices of different shapes compared at one capacity); 0: physical x (1 - ftl.op). It must leave the spare GC needs (ftl.gc_high_blocks, the reserves and two open superblocks per die), or the firmware refuses it naming this key; with ftl.placement lapt, slc-only or slc-direct on SLC dies it must fit the MLC dies beside their GC spare."},
      {"ftl.gc_policy", K::String, "\"greedy\"", 0, 0, "greedy|fifo|cost-benefit", "GC victim selection (inside MLC with ftl.placement: SLC GC is FIFO)."},
      {"ftl.placement", K::String, "\"none\"", 0, 0, "none|lapt|combo|slc-only|slc-direct", "SLC/MLC placement of host writes on a mixed device (nand.slc_dies) or a drive with a pSLC cache (nand.pslc.blocks_per_plane): none (striped over every die), lapt (SLC when the logical block ranks below the number of SLC superblocks by its LAPT counter), combo (ComboFTL, simplified: writes of at most ftl.combo.hot_write_kib to SLC, and SLC GC keeps data in SLC until it has survived ftl.combo.slc_survivals SLC GCs), slc-only (every write to SLC first: a plain SLC cache), slc-direct (every write to SLC while the cache has room, then straight to MLC/TLC, as consumer drives' TurboWrite; the cache is emptied only while the host is idle: needs ftl.idle_migration_us > 0). SLC GC is FIFO and migrates valid data to MLC. Needs an SLC region (SLC dies or a pSLC cache) and an MLC region, and ftl.mapping = opt; docs/ftl-guide.md."},
      {"ftl.combo.hot_write_kib", K::Int, "16", 4, 1048576, nullptr, "combo: host write requests of at most this many KiB are hot and go to SLC; larger ones go to MLC."},
      {"ftl.combo.slc_survivals", K::Int, "2", 0, 255, nullptr, "combo: SLC GCs data survives in SLC (copied back into SLC) before the next one migrates it to MLC; 0: every SLC GC migrates."},
      {"ftl.combo.unit_blocks", K::Int, "4", 0, 65535, nullptr, "combo: ComboFTL's unit-level MLC map (Superblock-FTL style): the logical space in units of this many MLC superblocks' worth of sectors; an MLC superblock holds one unit's data, a unit writes into one open superblock at a time and cleans itself when it owns its quota (docs/ftl-guide.md). 0: MLC page-mapped like the other policies."},
      {"ftl.combo.unit_extra_blocks", K::Int, "2", 1, 65535, nullptr, "combo: superblocks a unit may own beyond ftl.combo.unit_blocks before it must clean itself (a unit GC: its superblock with the fewest valid sectors)."},
      {"ftl.readahead", K::String, "\"none\"", 0, 0, "none|lru|dtree|dtree-lru|seq", "Read cache and read-ahead (the predictive read-ahead paper, docs/readahead.md): none (no read cache); lru (an LRU read cache of ftl.read_cache.kib: sectors read from flash for the host stay); dtree (the decision-tree pattern analyser predicts the next request, which is read from flash while the current one's data goes to the host; the buffer holds that prediction only); dtree-lru (both: predictions land in the LRU cache); seq (plain next-N read-ahead: after ftl.seq_readahead.trigger reads in a row continue the previous one, keep ftl.seq_readahead.window_kib read ahead). Read-ahead yields to host reads on each die."},
      {"ftl.read_cache.kib", K::Int, "2048", 4, 1048576, nullptr, "With ftl.readahead: the read cache's DRAM in KiB (4 KiB sectors; the paper: 2 MB)."},
      {"ftl.read_cache.item_kib", K::Int, "4", 4, 65536, nullptr, "With ftl.readahead: the read-ahead item in KiB, a multiple of 4: the analyser's address unit and what a prediction reads whole (the paper's items are 512 B; a sector is 4 KiB here)."},
      {"ftl.read_pattern.branches", K::Int, "4096", 1, 1000000000, nullptr, "dtree, dtree-lru: the analyser's m, branches (leaves) of its tree at most (the paper: 4096)."},
      {"ftl.read_pattern.depth", K::Int, "4096", 1, 1000000000, nullptr, "dtree, dtree-lru: the analyser's n, addresses on a branch at most; the first n form the main pattern (the paper: 4096)."},
      {"ftl.read_pattern.sequential_run", K::Int, "200", 1, 1000000000, nullptr, "dtree, dtree-lru: this many requests in a row each starting where the previous ended predict sequentially (the paper: 200)."},
      {"ftl.read_pattern.min_repeats", K::Int, "2", 1, 1000000, nullptr, "dtree, dtree-lru: the tree predicts a branch once the input has taken it this many times (1: on first sight; the paper leaves it open, docs/readahead.md)."},
      {"ftl.read_pattern.memory_kib", K::Int, "1024", 1, 1048576, nullptr, "dtree, dtree-lru: the analyser's fixed DRAM budget in KiB (nodes and their two indexes); m and n must fit in it."},
      {"ftl.seq_readahead.window_kib", K::Int, "128", 4, 1048576, nullptr, "seq: KiB kept read ahead of a sequential stream (topped up when half is used)."},
      {"ftl.seq_readahead.trigger", K::Int, "2", 1, 1000000, nullptr, "seq: reads in a row that continue the previous one before read-ahead starts."},
      {"ftl.idle_migration_us", K::Double, "0", 0, 1e9, nullptr, "With ftl.placement: after this many microseconds without a host command, SLC pools (SLC dies, or the dies' SLC-mode blocks) are cleaned ahead of need (their oldest blocks migrate) until ftl.idle_migration_free_ratio of their superblocks are free; the next host command stops it. 0: off."},
      {"ftl.slc_cache.dynamic_blocks_per_plane", K::Int, "0", 0, 65535, nullptr, "A dynamic SLC cache next to the static one (nand.pslc.blocks_per_plane): each die's SLC-mode pool may borrow up to this many of the die's native superblocks, erasing them in SLC mode, while the logical space the host has not filled can spare their native capacity; a borrowed superblock goes back at its next erase once it cannot (the cache shrinks as the drive fills, to the static part on a full drive). As Samsung's Intelligent TurboWrite. Needs nand.pslc.blocks_per_plane and ftl.placement = slc-only or slc-direct; 0 = a static cache only. ftl-sw/place/slc_cache.h."},
      {"ftl.idle_migration_free_ratio", K::Double, "0.5", 0, 1, nullptr, "Idle migration cleans an SLC pool until this share of its superblocks is free (at least ftl.gc_high_blocks)."},
      {"ftl.check_pool_walk", K::Bool, "false", 0, 0, nullptr, "Check every walk of the write buffer over the pools that resumes where the last one stopped (ftl-sw/buffer/write_buffer.c, pick_pool) against the pools it skips: one that could now take host data, or whose GC pace would change, halts the firmware. A test and debug aid.", nullptr, KeyRole::TestAid},
      {"ftl.gc_check_victims", K::Bool, "false", 0, 0, nullptr, "Check every GC victim the greedy index picks against a scan of its pool (ftl-sw/gc/victim_index.h); a difference halts the firmware. A test and debug aid: each check scans the pool.", nullptr, KeyRole::TestAid},
      {"ftl.lapt.tie_order", K::String, "\"oldest-first\"", 0, 0, "oldest-first|recent-first", "ftl.placement = lapt: the order among logical blocks with equal counters in the paper's sorted list, which decides which of them are SLC-writable (at most as many as SLC has blocks): oldest-first (a block that reaches a counter value ranks after the blocks already there; chosen as the default before any run: what a list sorted by counter with stable moves gives an increasing block) or recent-first (before them)."},
      {"ftl.lapt.logical_block", K::String, "\"slc-block\"", 0, 0, "slc-block|slc-superblock", "ftl.placement = lapt: the size of a logical block, the unit LAPT counts accesses of and ranks: slc-block (the paper's: as many sectors as one SLC block of one plane holds, 256 KiB with 64 pages of 4 KiB; as many of them SLC-writable as SLC has blocks, every plane's counted) or slc-superblock (one block on every plane of an SLC die: planes times larger, planes times fewer SLC-writable)."},
      {"ftl.test_defect", K::String, "\"none\"", 0, 0, "none|flush-before-program|recovery-skips-open-superblock|trim-log-not-replayed", "A test aid: builds a deliberately broken drive, so that the tests can show the power-cut checker catching a loss (testbenches/model/test_power_cut_defects.cpp). flush-before-program: a flush (and a FUA write) completes at once, before its data is programmed; recovery-skips-open-superblock: the power-on scan drops what it found in each partly written superblock; trim-log-not-replayed: recovery finds the trim log's records and does not apply them. none: the drive as built.", nullptr, KeyRole::TestAid},
      {"ftl.gc_low_blocks", K::Int, "3", 1, 1000, nullptr, "A die starts GC when its free superblocks drop below this (with a pSLC cache, each of a die's two pools, SLC-mode and native blocks, on its own)."},
      {"ftl.bad_block_reserve", K::Int, "-1", -1, 1000, nullptr, "Free superblocks per die (per pool) that host writes leave beyond the GC reserve so that GC keeps going when blocks go bad (a failed erase returns no superblock; a failed program's data needs another); -1 = auto: 1 when the NAND model can fail (nand.factory_bad_permille, nand.program_fail_per_million, nand.erase_fail_per_million or nand.fail_at set), else 0. It lowers the logical capacity by that many superblocks per die."},
      {"ftl.wear_spread", K::Int, "128", 0, 1000000, nullptr, "Static wear levelling: when a superblock's erase count gets more than this many erases ahead of the least-erased superblock of its pool, GC moves the data of the least-erased full superblock (cold data keeping it young) so that it goes back into use. 128 follows Linux UBI's advice for MLC NAND of ~10k cycles (its default 4096 is for 100k-cycle SLC). 0 = off (free superblocks are still reused oldest-erased first)."},
      {"ftl.wear_record_step", K::Int, "16", 1, 256, nullptr, "A superblock's erase count goes to the SPI NOR's erase-count log every this many erases; after a power loss the firmware resumes from the last record (a count at most this many erases low)."},
      {"ftl.gc_high_blocks", K::Int, "5", 1, 1000, nullptr, "GC on a die (or pool) goes on until this many superblocks are free (>= gc_low_blocks)."},
      {"ftl.slc_gc_low_blocks", K::Int, "0", 0, 1000, nullptr, "ftl.placement = lapt, slc-only, slc-direct or combo: an SLC pool's own GC threshold, so the SLC region fills to it before its first GC: GC starts when the pool's free superblocks drop below this. A pool whose GC only migrates (lapt, slc-only, slc-direct: FIFO, every victim's data to MLC) needs one open superblock and one being migrated, so 1 lets the SLC region fill to all but its open superblock, and host data may take its last free superblock (no GC reserve: GC writes to MLC). With combo (SLC GC copies data that has not survived ftl.combo.slc_survivals SLC GCs back into SLC) host data leaves one free superblock for those copies, so at least 2. 0 (with ftl.slc_gc_high_blocks = 0): the pool uses ftl.gc_low_blocks, ftl.gc_high_blocks and the GC reserve as every pool does."},
      {"ftl.slc_gc_high_blocks", K::Int, "0", 0, 1000, nullptr, "ftl.placement = lapt, slc-only, slc-direct or combo: an SLC pool's GC goes on until this many superblocks are free (>= ftl.slc_gc_low_blocks; both 0 or both set). An SLC die or pSLC cache needs this many superblocks, plus one open for host data and one being migrated (combo: GC's open superblock), plus ftl.bad_block_reserve."},
      {"ftl.gc_pacing", K::Bool, "false", 0, 0, nullptr, "Pace GC and the writes against each other with the victim's ratio, V/I copies per sector written (V valid, I invalid sectors of the victim; ftl-sw/gc/pacing.h): a pool's GC still starts below ftl.gc_low_blocks free superblocks at full speed, but from ftl.gc_low_blocks back up to ftl.gc_high_blocks its copies follow the writes into the pool; and a pool down to its host reserve takes host data only while it is at most a superpage ahead of what GC has reclaimed (else the data goes to another die), so host writes slow down with GC instead of stopping together. false: GC cleans at full speed to ftl.gc_high_blocks and host writes run until the reserve."},
      {"ftl.fdp.handles", K::Int, "0", 0, 16, nullptr, "Flexible Data Placement (NVMe TP 4146, docs/fdp.md): reclaim unit handles of the drive's one FDP configuration; a write's placement identifier (fio's fdp=1, fdp_pli) names one, and data of different handles never shares a superblock (each handle has its own write-buffer queue and its own open superblock on every die of its reclaim group). 0: FDP off. A conventional drive only, with ftl.placement = none, no pSLC cache and the volatile write cache on; no power cuts yet."},
      {"ftl.fdp.reclaim_groups", K::Int, "1", 1, 32, nullptr, "FDP: reclaim groups, the dies split into this many sets of consecutive dies (a group's reclaim unit is a handle's open superblock on each of its dies); must divide nand.channels x nand.ways; groups x handles at most 32."},
      {"ftl.fdp.isolation", K::String, "\"initial\"", 0, 0, "initial|persistent", "FDP: the handles' isolation. initial (initially isolated): GC copies the valid data of every handle into the pool's one GC superblock, so data of different handles may meet after GC; persistent (persistently isolated): each handle's victims are copied into that handle's own GC superblock, so its data stays apart for good. initial: chosen, the kind the FDP drives measured in docs/fdp.md expose."},
      {"ftl.write_buffer", K::String, "\"slots\"", 0, 0, "slots|ring", "How the DRAM write buffer hands out its 4 KiB entries (docs/write-buffer.md): slots (a pool of slots, each reused as soon as its data is on flash, in any order; the writer drains a superpage at a time) or ring (pblk's ring buffer: memory, submission and sync pointers; space comes back only in ring order; the writer waits for a full stripe, a superpage on every die, or ftl.ring.timeout_us; a rate limiter shrinks the users' share while free blocks are short)."},
      {"ftl.write_buffer_mib", K::Double, "0", 0, 4096, nullptr, "DRAM write buffer, MiB (host writes are acknowledged once their data is in it), split evenly between the firmware cores (firmware.cores). 0: by kind, 16 MiB of slots, or ftl.ring.stripes full stripes of ring per core. Each core's part at least two largest commands and a superpage; a ring's part at least one stripe."},
      {"ftl.ring.stripes", K::Int, "4", 1, 256, nullptr, "With ftl.write_buffer = ring and ftl.write_buffer_mib = 0: each core's ring's size in full stripes (a superpage on every die; pblk sizes its ring from the device's geometry the same way), more if that is less than two largest commands and a superpage."},
      {"ftl.ring.timeout_us", K::Int, "1000", 0, 10000000, nullptr, "With ftl.write_buffer = ring: whole superpages of less than a stripe are drained this long after the writer first went idle with them (0: only a full stripe or a flush drains)."},
      {"ftl.die_program_queue", K::Int, "2", 1, 64, nullptr, "Write-buffer programs queued on one die at most; more data waits in the buffer, so reads do not queue behind long program backlogs."},

      // ---------------------------------------------------------------- preconditioning
      {"precondition.mode", K::String, "\"functional\"", 0, 0, "functional|timed", "How preconditioning writes (docs/architecture.md, Timed preconditioning): functional (the device firmware writes the fill and the overwrites itself with its flash in functional mode: no simulated time passes) or timed (the host writes them through the drive's normal path, in simulated time, before the measured run: the fill sequentially in the largest commands, the overwrites as 4 KiB writes, 32 commands in flight from the first thread's CPU, then a flush; the way a host FTL is preconditioned, host.ftl, and what fio does when it lays out its file)."},
      {"precondition.fill", K::Double, "1.0", 0, 1, nullptr, "Fraction of the logical space written sequentially before the run (precondition.mode says how)."},
      {"precondition.overwrite", K::Double, "1.0", 0, 100, nullptr, "Random 4 KiB overwrites after the fill, as a multiple of the logical space (ages the drive to its GC steady state)."},
      {"precondition.seed", K::Int, "42", 0, 4294967295.0, nullptr, "Seed of the overwrite stream."},

      // ---------------------------------------------------------------- workload
      {"workload.spec", K::String, "\"fio:rw=randrw,rwmixread=70,bs=4k,iodepth=32,numjobs=1,io=200000\"", 0, 0, nullptr, "Default workload when --workload is not given (docs/traces.md has the grammar)."},
      {"workload.address", K::String, "\"fold\"", 0, 0, "fold|strict", "Requests beyond the logical capacity: fold them into it (modulo, counted in the results) or send them as they are (the drive answers LBA out of range)."},
      {"workload.max_requests", K::Int, "0", 0, kInf, nullptr, "Stop after this many host requests (0 = the whole workload)."},
      {"workload.flush_at_end", K::Bool, "true", 0, 0, nullptr, "Send a flush after the last request (its time is not part of the measured run)."},

      // ---------------------------------------------------------------- simulation
      {"sim.quantum_ns", K::Double, "1000", 1, kInf, nullptr, "Temporal-decoupling quantum of the native firmware core (firmware.mode = native), ns; ISS cores use firmware.quantum_instructions."},
      {"sim.payload", K::Bool, "false", 0, 0, nullptr, "Carry full 4 KiB payloads through DRAM and dies (else only the 8-byte tag of each sector)."},
      {"sim.host_data", K::Bool, "false", 0, 0, nullptr, "Carry the host's own bytes (ssdvp serve turns it on; implies sim.payload): every 4 KiB sector stores what the host wrote, all 4,096 bytes, and its 8-byte tag travels beside it (as end-to-end protection information does) instead of in its first 8 bytes; reads return what was written and their tags are still checked. Preconditioned sectors hold zeros. With a host FTL (host.ftl) its ring in host memory and its vector commands carry them too."},
      {"sim.check_flush_durability", K::Bool, "false", 0, 0, nullptr, "At every successful flush (the end-of-run one included) read the NAND array and check that every write acknowledged before the flush was submitted is on flash, its program completed (or a newer write of the sector is); a violation fails the run. A test and debug aid: each check scans the whole array.", nullptr, KeyRole::TestAid},
      {"sim.seed", K::Int, "1", 0, kInf, nullptr, "Base seed of the workload generators."},
      {"sim.output_dir", K::String, "\"ssdvp-out\"", 0, 0, nullptr, "Where run.json and the latency CSVs go."},
      {"sim.progress", K::Bool, "true", 0, 0, nullptr, "Print a progress line every few wall seconds on long runs."},
      {"sim.series_interval_ms", K::Double, "0", 0, kInf, nullptr, "Figures over time: per interval of this length of the measured run, MiB/s, IOPS and latency p50/p99 per operation, WAF so far, free superblocks, GC work and write-buffer fill, in run.json series (scripts/plot_series.py draws them); the throughput also in throughput.csv in sim.output_dir (0 = none)."},
      {"sim.max_sim_ms", K::Double, "0", 0, kInf, nullptr, "Stop the workload at this simulated time, ms (0 = no limit)."},
      {"sim.stall_limit_ms", K::Double, "0", 0, kInf, nullptr, "End the measured run with an error (exit status 3) when host requests are in flight and none completes for this long, ms of simulated time (0 = never): a drive that stopped making progress while simulated time goes on (GC that cleans for ever) is reported instead of running until a wall-clock limit. The tests that reproduce such livelocks set it."},
  };
  return schema;
}

std::string config_reference_markdown() {
  std::ostringstream out;
  out << "# Configuration reference\n\n"
         "Generated by `ssdvp config-doc` from `models/common/config_schema.cpp`; a test keeps\n"
         "this file equal to that output. Platforms are TOML files (`platforms/*.toml`); a key\n"
         "`a.b.c` is written `c = ...` under `[a.b]`. `--set a.b.c=value` overrides any key.\n"
         "Unknown keys, wrong types and values out of range are errors naming the key.\n\n"
         "Cross-key checks: `ftl.gc_high_blocks >= ftl.gc_low_blocks`; `nand.page_bytes` a\n"
         "multiple of 4096; `nand.oob_bytes >= 8 x sectors per page`; `host.max_transfer_kib` a\n"
         "multiple of 4; per-page-type timing lists have 1 or bits-per-cell values; the firmware's\n"
         "DRAM use (map, buffers, rings) must fit in `dram.size_mib`; a pSLC cache\n"
         "(`nand.pslc.blocks_per_plane`) needs MLC/TLC dies, no SLC dies, `ftl.placement` other than\n"
         "none, and more than `ftl.gc_high_blocks` + 4 blocks in it and twice that outside it.\n\n"
         "A key that applies only under another setting says so (\"Only with ...\"): set under another\n"
         "value it is refused, naming both, rather than silently ignored. Test aids (deliberately broken\n"
         "drives, checks of the firmware's internals) are listed apart at the end: a run refuses one\n"
         "unless the command opts in (`ssdvp run --test-aids`), warns on stderr when one is on and lists\n"
         "them in run.json (`test_aids`).\n";
  std::string section;
  const auto row = [&](const KeySpec& k) {
    const char* type = "";
    std::string range;
    switch (k.type) {
      case KeyType::Bool: type = "bool"; break;
      case KeyType::Int: type = "int"; break;
      case KeyType::Double: type = "float"; break;
      case KeyType::String: type = "string"; break;
      case KeyType::DoubleList: type = "float list"; break;
    }
    auto num = [](double v) {
      if (v >= kInf) return std::string("inf");
      std::ostringstream s;
      s << v;
      return s.str();
    };
    if (k.type == KeyType::Int || k.type == KeyType::Double || k.type == KeyType::DoubleList)
      range = num(k.min) + " .. " + num(k.max);
    else if (k.choices)
      range = std::string(k.choices);
    std::string def = k.def;
    for (auto& c : range)
      if (c == '|') c = '/';
    std::string doc = k.doc;
    if (k.only_with) {
      std::string rule = k.only_with;
      for (auto& c : rule)
        if (c == '|') c = '/';
      doc += " Only with `" + rule.replace(rule.find('='), 1, " = ") + "`.";
    }
    out << "| `" << k.key << "` | " << type << " | `" << def << "` | " << range << " | " << doc << " |\n";
  };
  for (const auto& k : config_schema()) {
    if (k.role == KeyRole::TestAid) continue;
    std::string key = k.key;
    std::string sec = key.substr(0, key.find('.'));
    if (sec != section) {
      section = sec;
      out << "\n## [" << sec << "]\n\n| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
    }
    row(k);
  }
  out << "\n## Test aids\n\nRefused unless the run opts in (`ssdvp run --test-aids`; in a test, `RunOptions::test_aids`).\n\n"
         "| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const auto& k : config_schema())
    if (k.role == KeyRole::TestAid) row(k);
  out << config_needs_markdown();
  return out.str();
}

}  // namespace ssdvp
