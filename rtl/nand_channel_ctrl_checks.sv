// Assertions of the NAND channel controller (rtl/nand_channel_ctrl.sv), bound into every
// instance beside the design (`bind` at the end of this file): its own signals by name, no
// port of the design changed, nothing of it in the design's file.
//
// Checks, every cycle out of reset, each named (the name, the cycle `now` and the signals are
// in the message; Verilator prints "Assertion failed in ... <name>" with the file and line):
//   * bus pins: at most one CE# low, and only during a phase, the owner's; CLE and ALE never
//     together, and each latched with WE# low; WE# and RE# never together; ALE in command and
//     data-out phases (the change-read-column address), a data byte in (WE# alone) only in a
//     command phase, RE# only in data out and status; all quiet on an idle bus;
//   * the bus: no grant while a phase runs; a phase never runs past its end; array_go only in
//     the last cycle of a command phase;
//   * R/B#: a command only to planes that are ready, a data-out or status phase only when the
//     planes its operation occupies are ready again after their array;
//   * start cycles: a command never before its descriptor's start cycle;
//   * queues: never more than QDEPTH descriptors in a way's queue or CPL_DEPTH completions;
//   * conservation: every descriptor accepted is in its way's queue, in a slot, in the
//     completion queue or handed out, exactly once (accepted - handed out = queued + slots in
//     use + completions waiting): none lost, none duplicated;
//   * slots: each slot moves only free -> bus (command) -> array -> waiting for the bus -> bus
//     (data out or status) -> [done] -> free; a command phase leads to the array, the last
//     phase to done or free; the slots in flight on a way occupy disjoint planes;
//   * one completion enters the queue a cycle, and only with room for it;
//   * registers: their reset values in the first cycle after reset.
// Leaves out: what crossed the pins against the descriptor (the protocol monitor,
// testbenches/rtl/nand_protocol_monitor.*), the timing of phases against the registers (the
// monitor and the TLM equivalence), liveness (a completion eventually: the testbenches drain).
// The checks run on clock edges out of reset; the design resets asynchronously (the same rst_n
// used both ways is what Verilator's SYNCASYNCNET names).
// verilator lint_off SYNCASYNCNET
module nand_channel_ctrl_checks #(
    parameter int WAYS = 4,
    parameter int WAY_BITS = 2,
    parameter int QDEPTH = 4,
    parameter int CPL_DEPTH = 8,
    parameter int PLANES = 8,
    parameter int SLOTS = 4,
    parameter int SLOT_BITS = 2
) (
    input logic                   clk,
    input logic                   rst_n,
    input logic [63:0]            now,
    input logic                   desc_valid,
    input logic                   desc_ready,
    input logic                   cpl_valid,
    input logic                   cpl_ready,
    input logic [WAYS*PLANES-1:0] plane_ready,
    input logic [WAYS-1:0]        array_go,
    input logic [WAYS-1:0]        onfi_ce_n,
    input logic                   onfi_cle,
    input logic                   onfi_ale,
    input logic                   onfi_we_n,
    input logic                   onfi_re_n,
    // the design's own state
    input logic [15:0]            reg_cmd_addr,
    input logic [15:0]            reg_data_setup,
    input logic [15:0]            reg_status,
    input logic                   indep,
    input logic [31:0]            n_completed,
    input logic [31:0]            n_bus_cycles,
    input logic [$clog2(QDEPTH):0] q_count [WAYS],
    input logic [QDEPTH > 1 ? $clog2(QDEPTH)-1 : 0:0] q_head [WAYS],
    input logic [63:0]            q_start [WAYS][QDEPTH],
    input logic [2:0]             sl_st [WAYS][SLOTS],
    input logic [1:0]             sl_phase [WAYS][SLOTS],
    input logic [PLANES-1:0]      sl_occ [WAYS][SLOTS],
    input logic [$clog2(CPL_DEPTH):0] c_count,
    input logic                   busy,
    input logic [63:0]            phase_end,
    input logic                   grant_valid,
    input logic                   grant_cmd,
    input logic [WAY_BITS-1:0]    grant_way,
    input logic [SLOT_BITS-1:0]   grant_slot,
    input logic [1:0]             grant_op,
    input logic [PLANES-1:0]      grant_mask,
    input logic                   cur_busy,
    input logic                   cur_last,
    input logic [WAY_BITS-1:0]    cur_owner,
    input logic [1:0]             cur_phase,
    input logic [63:0]            cur_end,
    input logic                   done_push
);
  localparam logic [2:0] L_FREE = 3'd0, L_BUS = 3'd1, L_ARRAY = 3'd2, L_WAIT_BUS = 3'd3, L_DONE = 3'd4;
  localparam logic [1:0] P_CMD = 2'd0, P_DATA_OUT = 2'd1, P_STATUS = 2'd2;
  localparam logic [1:0] OP_READ = 2'd1;

  // Descriptors accepted and completions handed out since reset; the slots' states a cycle ago.
  logic [63:0] n_accepted, n_handed_out;
  logic [2:0]  sl_st_q [WAYS][SLOTS];
  logic [1:0]  sl_phase_q [WAYS][SLOTS];
  logic        first_after_reset;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      n_accepted        <= '0;
      n_handed_out      <= '0;
      first_after_reset <= 1'b1;
      for (int w = 0; w < WAYS; w++)
        for (int s = 0; s < SLOTS; s++) begin
          sl_st_q[w][s]    <= L_FREE;
          sl_phase_q[w][s] <= P_CMD;
        end
    end else begin
      first_after_reset <= 1'b0;
      if (desc_valid && desc_ready) n_accepted <= n_accepted + 64'd1;
      if (cpl_valid && cpl_ready) n_handed_out <= n_handed_out + 64'd1;
      sl_st_q    <= sl_st;
      sl_phase_q <= sl_phase;
    end
  end

  // What this cycle holds: descriptors queued, slots in use.
  logic [63:0] held;
  always_comb begin
    held = 64'(c_count);
    for (int w = 0; w < WAYS; w++) begin
      held = held + 64'(q_count[w]);
      for (int s = 0; s < SLOTS; s++) if (sl_st[w][s] != L_FREE) held = held + 64'd1;
    end
  end

  // The planes of the way being granted must be ready: a command's own (its mask, or every
  // plane without independent reads), a data-out or status phase's the ones its slot occupies.
  logic [PLANES-1:0] grant_planes, grant_rdy;
  always_comb begin
    grant_rdy    = plane_ready[grant_way*PLANES +: PLANES];
    grant_planes = grant_cmd ? (indep && grant_op == OP_READ ? grant_mask : '1) : sl_occ[grant_way][grant_slot];
  end

  always @(posedge clk) if (rst_n) begin
    // ---- pins
    a_one_ce_low: assert ($onehot0(~onfi_ce_n))
      else $error("cycle %0d: CE# of more than one way low: onfi_ce_n=%b", now, onfi_ce_n);
    a_ce_only_owner: assert (cur_busy ? (~onfi_ce_n) == WAYS'(1) << cur_owner : onfi_ce_n == '1)
      else $error("cycle %0d: CE# low off the bus owner or on an idle bus: onfi_ce_n=%b busy=%b owner=%0d", now,
                  onfi_ce_n, cur_busy, cur_owner);
    a_cle_ale_apart: assert (!(onfi_cle && onfi_ale))
      else $error("cycle %0d: CLE and ALE high together", now);
    a_idle_bus_quiet: assert (cur_busy || (!onfi_cle && !onfi_ale && onfi_we_n && onfi_re_n))
      else $error("cycle %0d: a strobe on an idle bus: CLE=%b ALE=%b WE#=%b RE#=%b", now, onfi_cle, onfi_ale,
                  onfi_we_n, onfi_re_n);
    a_ale_in_command_or_data_out: assert (!onfi_ale || cur_phase == P_CMD || cur_phase == P_DATA_OUT)
      else $error("cycle %0d: ALE high in a status phase", now);
    a_latch_strobes_we: assert (!(onfi_cle || onfi_ale) || !onfi_we_n)
      else $error("cycle %0d: CLE or ALE high without WE# low (the byte is not latched)", now);
    a_re_in_read_phases: assert (onfi_re_n || cur_phase == P_DATA_OUT || cur_phase == P_STATUS)
      else $error("cycle %0d: RE# low in a command phase", now);
    a_we_data_only_in_command: assert (onfi_we_n || onfi_cle || onfi_ale || cur_phase == P_CMD)
      else $error("cycle %0d: a data byte strobed in (WE# low) in phase %0d, not a command phase", now, cur_phase);
    a_we_re_apart: assert (onfi_we_n || onfi_re_n)
      else $error("cycle %0d: WE# and RE# low together", now);
    // ---- the bus
    a_no_grant_while_busy: assert (!(grant_valid && busy))
      else $error("cycle %0d: a phase granted while another runs (until %0d)", now, phase_end);
    a_phase_within_end: assert (!cur_busy || cur_end > now)
      else $error("cycle %0d: the phase on the bus ran past its end %0d", now, cur_end);
    a_array_go_at_command_end: assert (array_go == '0 || (cur_last && cur_phase == P_CMD && $onehot(array_go) &&
                                                          array_go == WAYS'(1) << cur_owner))
      else $error("cycle %0d: array_go=%b outside the last cycle of the owner's command phase", now, array_go);
    // ---- R/B# and start cycles
    a_grant_planes_ready: assert (!grant_valid || (grant_rdy & grant_planes) == grant_planes)
      else $error("cycle %0d: %s phase granted to way %0d slot %0d with planes %b busy (R/B# %b)", now,
                  grant_cmd ? "command" : "data-out/status", grant_way, grant_slot, grant_planes, grant_rdy);
    a_command_not_early: assert (!(grant_valid && grant_cmd) || q_start[grant_way][q_head[grant_way]] <= now)
      else $error("cycle %0d: way %0d's command granted before its start cycle %0d", now, grant_way,
                  q_start[grant_way][q_head[grant_way]]);
    // ---- queues and conservation
    for (int w = 0; w < WAYS; w++)
      a_queue_bound: assert (q_count[w] <= ($clog2(QDEPTH) + 1)'(QDEPTH))
        else $error("cycle %0d: way %0d's queue holds %0d > QDEPTH %0d", now, w, q_count[w], QDEPTH);
    a_completion_bound: assert (c_count <= ($clog2(CPL_DEPTH) + 1)'(CPL_DEPTH))
      else $error("cycle %0d: %0d completions queued > CPL_DEPTH %0d", now, c_count, CPL_DEPTH);
    a_conservation: assert (n_accepted - n_handed_out == held)
      else $error("cycle %0d: %0d descriptors accepted, %0d completions handed out, but %0d held (queues, slots, completion queue): one lost or duplicated",
                  now, n_accepted, n_handed_out, held);
    a_completion_room: assert (!done_push || 64'(c_count) - 64'(cpl_valid && cpl_ready) < 64'(CPL_DEPTH))
      else $error("cycle %0d: a completion pushed into a full completion queue", now);
    // ---- slots
    for (int w = 0; w < WAYS; w++)
      for (int s = 0; s < SLOTS; s++) begin
        logic [2:0] a, b;
        a = sl_st_q[w][s];
        b = sl_st[w][s];
        if (!first_after_reset)
          a_slot_order: assert (a == b ||
                                (a == L_FREE && b == L_BUS && sl_phase[w][s] == P_CMD) ||
                                (a == L_BUS && b == L_ARRAY && sl_phase_q[w][s] == P_CMD) ||
                                (a == L_BUS && (b == L_FREE || b == L_DONE) && sl_phase_q[w][s] != P_CMD) ||
                                (a == L_ARRAY && (b == L_WAIT_BUS || b == L_BUS) && sl_phase[w][s] != P_CMD) ||
                                (a == L_WAIT_BUS && b == L_BUS) ||
                                (a == L_DONE && b == L_FREE))
            else $error("cycle %0d: way %0d slot %0d went from state %0d (phase %0d) to %0d (phase %0d)", now, w, s, a,
                        sl_phase_q[w][s], b, sl_phase[w][s]);
      end
    // A plane belongs to one operation at a time: the slots in use on a way occupy disjoint
    // planes (only reads of other planes run beside one another).
    for (int w = 0; w < WAYS; w++)
      for (int s = 0; s < SLOTS; s++)
        for (int t = s + 1; t < SLOTS; t++)
          a_slot_planes_disjoint: assert (sl_st[w][s] == L_FREE || sl_st[w][t] == L_FREE || (sl_occ[w][s] & sl_occ[w][t]) == '0)
            else $error("cycle %0d: way %0d slots %0d and %0d in flight on the same planes (%b, %b)", now, w, s, t,
                        sl_occ[w][s], sl_occ[w][t]);
    // ---- registers
    if (first_after_reset)
      a_register_reset_values: assert (reg_cmd_addr == 16'd40 && reg_data_setup == 16'd40 && reg_status == 16'd20 &&
                                       !indep && n_completed == '0 && n_bus_cycles == '0 && c_count == '0 && !busy)
        else $error("cycle %0d: registers after reset: CMD_ADDR %0d DATA_SETUP %0d STATUS %0d FEATURES %0d COMPLETED %0d BUS_CYCLES %0d",
                    now, reg_cmd_addr, reg_data_setup, reg_status, indep, n_completed, n_bus_cycles);
  end
endmodule

bind nand_channel_ctrl nand_channel_ctrl_checks #(
    .WAYS(WAYS), .WAY_BITS(WAY_BITS), .QDEPTH(QDEPTH), .CPL_DEPTH(CPL_DEPTH),
    .PLANES(PLANES), .SLOTS(SLOTS), .SLOT_BITS(SLOT_BITS)
) u_checks (.*);
