#!/usr/bin/env python3
"""Writes the RTL bug list's patches (testbenches/rtl/mutants/NN-name.patch) from rtl/nand_channel_ctrl.sv.

Each bug is one plausible mistake, given as the exact text it replaces in the RTL and what it puts
there; its patch is that change as a unified diff, with a first line saying what the bug is.
testbenches/CMakeLists.txt applies each patch when CMake configures, builds it with the stress
driver (testbenches/rtl/rtl_stress.cpp) and runs it; the detector named there must catch it.
When the RTL changes so that a patch no longer applies, CMake says which: run this from the
repository's root to write them anew (a bug whose text is gone must be rewritten here).

  python3 testbenches/rtl/mutants/make_patches.py
"""
import subprocess
src = open('rtl/nand_channel_ctrl.sv').read()
muts = [
 ("01-two-ce-low", "CE# of way 0 low beside the bus owner's",
  "      onfi_ce_n[cur_owner] = 1'b0;\n", "      onfi_ce_n[cur_owner] = 1'b0;\n      onfi_ce_n[0] = 1'b0;\n"),
 ("02-program-slot-freed-at-array-start", "a program's slot freed when its array starts, before its status phase",
  "          sl_st      [cur_owner][cur_slot] <= L_ARRAY;\n", "          sl_st      [cur_owner][cur_slot] <= cur_op == OP_PROG ? L_FREE : L_ARRAY;\n"),
 ("03-completion-dropped-when-full", "an operation finishing while the completion queue is full frees its slot without its completion",
  "        end else sl_st[cur_owner][cur_slot] <= push_from_bus ? L_FREE : L_DONE;\n", "        end else sl_st[cur_owner][cur_slot] <= L_FREE;\n"),
 ("04-queue-full-off-by-one", "a way's queue takes one descriptor more than it holds",
  "  assign desc_ready = q_count[desc_way] != (QBITS + 1)'(QDEPTH);\n", "  assign desc_ready = q_count[desc_way] <= (QBITS + 1)'(QDEPTH);\n"),
 ("05-grant-while-busy", "the arbiter grants a phase while another runs",
  "    if (busy) grant_valid = 1'b0;\n", ""),
 ("06-status-phase-one-cycle-long", "the status phase one cycle longer than the STATUS register",
  "    if (ph == P_STATUS) return {8'd0, reg_status};\n", "    if (ph == P_STATUS) return {8'd0, reg_status} + 24'd1;\n"),
 ("07-data-cycles-off-by-one", "the data cycles of a phase one more than the bytes over the bus width",
  "    data = ({4'd0, xfer} + 24'(BUS_BYTES - 1)) / 24'(BUS_BYTES);\n", "    data = ({4'd0, xfer} + 24'(BUS_BYTES)) / 24'(BUS_BYTES);\n"),
 ("08-array-go-at-command-start", "the die told to start its array in the first cycle of the command phase, not the last",
  "    if (cur_last && cur_phase == P_CMD) array_go[cur_owner] = 1'b1;\n", "    if (cur_busy && pos == 0 && cur_phase == P_CMD) array_go[cur_owner] = 1'b1;\n"),
 ("09-start-cycle-ignored", "a command started before its descriptor's start cycle",
  "(rdy_w & hocc) == hocc && arr <= now;\n", "(rdy_w & hocc) == hocc;\n"),
 ("10-ale-through-address-setup", "ALE held high into the program's address-to-data setup (tADL)",
  "          end else if (seg_pos + 24'd1 < ca) begin\n", "          end else if (seg_pos + 24'd1 < ca + (cur_op == OP_PROG ? ds : 24'd0)) begin\n"),
 ("11-re-strobed-for-data-in", "program data clocked in with RE# instead of WE#",
  "          onfi_we_n = !(onfi_cle || onfi_ale || (cur_op == OP_PROG && seg_pos + 24'd1 >= ca + ds && seg_pos + 24'd1 < seg_len));\n",
  "          onfi_we_n = !(onfi_cle || onfi_ale);\n          onfi_re_n = !(cur_op == OP_PROG && seg_pos + 24'd1 >= ca + ds && seg_pos + 24'd1 < seg_len);\n"),
 ("12-status-reset-value", "the STATUS register resets to 21 cycles, not 20",
  "      reg_status     <= 16'd20;\n", "      reg_status     <= 16'd21;\n"),
 ("13-plane-ready-ignored-for-data-out", "a read's data out eligible while its planes are still busy (R/B# not honoured)",
  "            if ((rdy_w & occ) == occ && sl_saw_busy[w][s]) begin\n", "            if (sl_saw_busy[w][s]) begin\n"),
 ("14-independent-reads-overlap-same-plane", "independent plane reads let a read start beside a read of the same plane",
  "(sl_mask[w][s] & hmask) != '0) begin\n", "(sl_mask[w][s] & hmask) == '1) begin\n"),
 ("15-read-confirm-swapped", "a multi-plane read confirmed with 30h on each plane and 32h on the last (the two confirms swapped)",
  "            onfi_dq  = cur_op == OP_READ ? (seg_last ? 8'h30 : 8'h32) : (seg_last ? 8'hD0 : 8'hD1);\n",
  "            onfi_dq  = cur_op == OP_READ ? (seg_last ? 8'h32 : 8'h30) : (seg_last ? 8'hD0 : 8'hD1);\n"),
 ("16-address-names-segment-not-plane", "the first address byte carries the segment's index instead of its plane",
  "            onfi_dq  = seg_pos == 24'd1 ? seg_plane : 8'h00;\n", "            onfi_dq  = seg_pos == 24'd1 ? 8'(seg_idx) : 8'h00;\n"),
 ("17-tadl-one-cycle-short", "program data in starts one cycle before DATA_SETUP has passed (tADL short)",
  "(cur_op == OP_PROG && seg_pos + 24'd1 >= ca + ds && seg_pos + 24'd1 < seg_len));\n",
  "(cur_op == OP_PROG && seg_pos + 24'd2 >= ca + ds && seg_pos + 24'd1 < seg_len));\n"),
 ("18-twhr-one-cycle-short", "data out starts one cycle before DATA_SETUP has passed (tWHR short)",
  "          else onfi_re_n = seg_pos < ds;\n", "          else onfi_re_n = seg_pos + 24'd1 < ds;\n"),
]
for name, why, old, new in muts:
    assert src.count(old) == 1, name
    mut = src.replace(old, new)
    open('/tmp/ssdvp-mutant.sv', 'w').write(mut)
    d = subprocess.run(['diff', '-u', '--label', 'a/rtl/nand_channel_ctrl.sv', '--label', 'b/rtl/nand_channel_ctrl.sv', 'rtl/nand_channel_ctrl.sv', '/tmp/ssdvp-mutant.sv'], capture_output=True, text=True).stdout
    open(f'testbenches/rtl/mutants/{name}.patch', 'w').write(f"Bug: {why}.\n" + d)
print(f"{len(muts)} patches written to testbenches/rtl/mutants/")
