// Functional coverage of the NAND channel controller (rtl/nand_channel_ctrl.sv): cover
// properties in a module bound beside the design, counted by Verilator's --coverage (user
// points) into the same coverage data as its line and toggle coverage.  Built into the
// coverage regression's model only (testbenches/rtl/rtl_stress.cpp, scripts/rtl_regression.py).
//
// Bins (each a cover property, named c_...; per-way ones in g_way[w]):
//   * every command granted, by operation x plane-mask class x slot occupancy: reads of one
//     plane and of several, with 0, 1, 2 or 3 other slots of the way in use (independent plane
//     reads); programs and erases of one plane and of several (they only start on an idle way);
//   * per way (ways 0-3): its queue full, its queue drained (the last descriptor started),
//     granted the bus while another way had a phase or command eligible (contention), two
//     reads in their arrays beside each other (independent plane reads);
//   * every writable register written, and a write to a read-only one;
//   * back-pressure: a completion waiting for cpl_ready, the completion queue full, a finished
//     operation waiting in its slot for room, a descriptor waiting for desc_ready;
//   * a multi-plane data out, a status phase, a phase granted in the cycle the previous ended.
// Leaves out: crosses of the timing registers' values (they only scale phases), reset in the
// middle of traffic (the unit test ResetInTheMiddleOfTraffic covers it).
module nand_channel_ctrl_coverage #(
    parameter int WAYS = 4,
    parameter int WAY_BITS = 2,
    parameter int QDEPTH = 4,
    parameter int CPL_DEPTH = 8,
    parameter int PLANES = 8,
    parameter int SLOTS = 4,
    parameter int SLOT_BITS = 2
) (
    input logic                    clk,
    input logic                    rst_n,
    input logic                    reg_we,
    input logic [3:0]              reg_addr,
    input logic                    desc_valid,
    input logic                    desc_ready,
    input logic                    cpl_valid,
    input logic                    cpl_ready,
    input logic [$clog2(QDEPTH):0] q_count [WAYS],
    input logic [2:0]              sl_st [WAYS][SLOTS],
    input logic [1:0]              sl_op [WAYS][SLOTS],
    input logic [PLANES-1:0]       sl_mask [WAYS][SLOTS],
    input logic                    sl_elig [WAYS][SLOTS],
    input logic                    cmd_elig [WAYS],
    input logic [$clog2(CPL_DEPTH):0] c_count,
    input logic [63:0]             now,
    input logic [63:0]             phase_end,
    input logic                    grant_valid,
    input logic                    grant_cmd,
    input logic [WAY_BITS-1:0]     grant_way,
    input logic [SLOT_BITS-1:0]    grant_slot,
    input logic [1:0]              grant_op,
    input logic [PLANES-1:0]       grant_mask,
    input logic [1:0]              grant_phase
);
  // verilator lint_off SYNCASYNCNET
  localparam logic [2:0] L_FREE = 3'd0, L_ARRAY = 3'd2, L_DONE = 3'd4;
  localparam logic [1:0] OP_READ = 2'd1, OP_PROG = 2'd2, OP_ERASE = 2'd3;
  localparam logic [1:0] P_DATA_OUT = 2'd1, P_STATUS = 2'd2;

  // What the command being granted is: its mask class and the other slots of its way in use.
  logic       one_plane;
  logic [3:0] occupancy;
  logic       other_way_waiting, slot_done_waiting;
  logic [WAYS-1:0] reads_beside;
  always_comb begin
    one_plane = $countones(grant_mask) == 1;
    occupancy = '0;
    for (int s = 0; s < SLOTS; s++)
      if (sl_st[grant_way][s] != L_FREE) occupancy = occupancy + 4'd1;
    other_way_waiting = 1'b0;
    for (int w = 0; w < WAYS; w++)
      if (WAY_BITS'(w) != grant_way) begin
        if (cmd_elig[w]) other_way_waiting = 1'b1;
        for (int s = 0; s < SLOTS; s++) if (sl_elig[w][s]) other_way_waiting = 1'b1;
      end
    slot_done_waiting = 1'b0;
    reads_beside = '0;
    for (int w = 0; w < WAYS; w++) begin
      int in_array;
      in_array = 0;
      for (int s = 0; s < SLOTS; s++) begin
        if (sl_st[w][s] == L_DONE) slot_done_waiting = 1'b1;
        if (sl_st[w][s] == L_ARRAY && sl_op[w][s] == OP_READ) in_array++;
      end
      reads_beside[w] = in_array >= 2;
    end
  end
  logic cmd_grant;
  assign cmd_grant = rst_n && grant_valid && grant_cmd;

  // ---- commands: operation x plane-mask class x occupancy
  c_read_one_plane_occ0: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && one_plane && occupancy == 0);
  c_read_one_plane_occ1: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && one_plane && occupancy == 1);
  c_read_one_plane_occ2: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && one_plane && occupancy == 2);
  c_read_one_plane_occ3: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && one_plane && occupancy == 3);
  c_read_planes_occ0: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && !one_plane && occupancy == 0);
  c_read_planes_occ1: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && !one_plane && occupancy == 1);
  c_read_planes_occ2: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && !one_plane && occupancy == 2);
  c_read_planes_occ3: cover property (@(posedge clk) cmd_grant && grant_op == OP_READ && !one_plane && occupancy == 3);
  c_program_one_plane: cover property (@(posedge clk) cmd_grant && grant_op == OP_PROG && one_plane);
  c_program_planes: cover property (@(posedge clk) cmd_grant && grant_op == OP_PROG && !one_plane);
  c_erase_one_plane: cover property (@(posedge clk) cmd_grant && grant_op == OP_ERASE && one_plane);
  c_erase_planes: cover property (@(posedge clk) cmd_grant && grant_op == OP_ERASE && !one_plane);

  // ---- per way: queue full and drained, contention, reads beside each other (ways 0-3 by
  // name: Verilator merges the instances of a generate loop's cover into one point)
`define SSDVP_COVER_WAY(k) \
  if (WAYS > k) begin : g_way``k \
    c_queue_full: cover property (@(posedge clk) rst_n && q_count[k] == ($clog2(QDEPTH) + 1)'(QDEPTH)); \
    c_queue_drained: cover property (@(posedge clk) cmd_grant && grant_way == WAY_BITS'(k) && q_count[k] == 1); \
    c_bus_contention: cover property (@(posedge clk) rst_n && grant_valid && grant_way == WAY_BITS'(k) && other_way_waiting); \
    c_reads_beside: cover property (@(posedge clk) rst_n && reads_beside[k]); \
  end
  `SSDVP_COVER_WAY(0)
  `SSDVP_COVER_WAY(1)
  `SSDVP_COVER_WAY(2)
  `SSDVP_COVER_WAY(3)
`undef SSDVP_COVER_WAY

  // ---- registers
  c_write_cmd_addr: cover property (@(posedge clk) rst_n && reg_we && reg_addr == 4'd0);
  c_write_data_setup: cover property (@(posedge clk) rst_n && reg_we && reg_addr == 4'd1);
  c_write_status: cover property (@(posedge clk) rst_n && reg_we && reg_addr == 4'd2);
  c_write_features: cover property (@(posedge clk) rst_n && reg_we && reg_addr == 4'd8);
  c_write_read_only: cover property (@(posedge clk) rst_n && reg_we && reg_addr != 4'd0 && reg_addr != 4'd1 &&
                                     reg_addr != 4'd2 && reg_addr != 4'd8);

  // ---- back-pressure
  c_completion_waits: cover property (@(posedge clk) rst_n && cpl_valid && !cpl_ready);
  c_completion_queue_full: cover property (@(posedge clk) rst_n && c_count == ($clog2(CPL_DEPTH) + 1)'(CPL_DEPTH));
  c_slot_waits_for_room: cover property (@(posedge clk) rst_n && slot_done_waiting);
  c_descriptor_waits: cover property (@(posedge clk) rst_n && desc_valid && !desc_ready);

  // ---- phases
  c_data_out_planes: cover property (@(posedge clk) rst_n && grant_valid && !grant_cmd && grant_phase == P_DATA_OUT &&
                                     $countones(sl_mask[grant_way][grant_slot]) > 1);
  c_status_phase: cover property (@(posedge clk) rst_n && grant_valid && grant_phase == P_STATUS);
  c_back_to_back: cover property (@(posedge clk) rst_n && grant_valid && phase_end == now);
  // verilator lint_on SYNCASYNCNET
endmodule

bind nand_channel_ctrl nand_channel_ctrl_coverage #(
    .WAYS(WAYS), .WAY_BITS(WAY_BITS), .QDEPTH(QDEPTH), .CPL_DEPTH(CPL_DEPTH), .PLANES(PLANES), .SLOTS(SLOTS),
    .SLOT_BITS(SLOT_BITS)
) u_coverage (.*);
