// otpu_rtl_tb.sv - the Verilator top of otpu-rtl: the project's RTL (rtl/otpu_top.sv) and the
// adapter that turns its native event ports (rtl/EVENTS.md) into the lockstep records of
// dpi/otpu_lockstep_dpi.sv, while ev_en is high. Parameters: the bundle's Config (-G at build
// time).
`include "otpu_config.svh"

module otpu_rtl_tb
  import otpu_pkg::*;
#(
  `OTPU_CONFIG_PARAMS,
  `OTPU_CONFIG_TOP_PARAMS
) (
  input  logic         clk,
  input  logic         rst,
  input  logic         dump,
  input  logic         ev_en,
  output logic         stopped,     // every slice halted or stopped with an error
  output logic         any_error,
  output logic [11:0][63:0] cfg      // the Config this model was built for (otpu_bundle.h order)
);
  import otpu_lockstep_dpi::*;

  ev_ins_t [S-1:0]              ev_disp, ev_exec;
  ev_ins_t [S-1:0][NUNITS-1:0]  ev_start, ev_done;
  wr_t     [S-1:0][NPORTS-1:0]  ev_wr;
  logic    [S-1:0]              ev_chain, halted, error, busy;
  logic    [S-1:0][31:0]        ev_chain_addr, ev_chain_n, pc, icount;

  otpu_top #(`OTPU_CONFIG_PASS, `OTPU_CONFIG_TOP_PASS) u_top (
    .clk, .rst, .dump, .ev_disp, .ev_exec, .ev_start, .ev_done, .ev_wr, .ev_chain,
    .ev_chain_addr, .ev_chain_n, .halted, .error, .pc, .icount, .busy
  );

  assign cfg = {64'(ACT_ROWS), 64'(STREAM), 64'(DSTEP), 64'(PAIR), 64'(LANES), 64'(IMEM_WORDS),
                64'(DRAM_BYTES), 64'(TMEM_WORDS), 64'(ACT_BLOCKS), 64'(MCOLS), 64'(D), 64'(S)};
  assign stopped = &(halted | error);
  assign any_error = |error;

  // the levels host.txt's steps wait on (rtl/otpu_dpi.sv), reported as they change
  logic [S-1:0] host_h_q, host_e_q, host_c_q;
  always_ff @(posedge clk) begin
    for (int s = 0; s < S; s++)
      if (!rst && (halted[s] != host_h_q[s] || error[s] != host_e_q[s] ||
                   u_top.coll_req[s] != host_c_q[s]))
        otpu_dpi::otpu_host_level(s, int'(halted[s]), int'(error[s]), int'(u_top.coll_req[s]));
    host_h_q <= rst ? '0 : halted;
    host_e_q <= rst ? '0 : error;
    host_c_q <= rst ? '0 : u_top.coll_req;
  end

  logic [S-1:0] halted_q, error_q;
  always_ff @(posedge clk) begin
    halted_q <= rst ? '0 : halted;
    error_q <= rst ? '0 : error;
    if (ev_en && !rst) begin
      for (int s = 0; s < S; s++) begin
        if (ev_exec[s].v) otpu_ev_ins(s, EV_EXEC, -1, 0, ev_exec[s].pc, int'(ev_exec[s].op));
        if (ev_wr[s][P_SEQ_R].v)
          otpu_ev_wr(s, P_SEQ_R, int'(ev_wr[s][P_SEQ_R].space), ev_wr[s][P_SEQ_R].addr,
                     ev_wr[s][P_SEQ_R].data, int'(ev_wr[s][P_SEQ_R].mask));
        if (ev_disp[s].v)
          otpu_ev_ins(s, EV_DISPATCH, -1, int'(ev_disp[s].slot), ev_disp[s].pc,
                      int'(ev_disp[s].op));
        for (int u = 0; u < NUNITS; u++)
          if (ev_start[s][u].v)
            otpu_ev_ins(s, EV_START, u, int'(ev_start[s][u].slot), ev_start[s][u].pc,
                        int'(ev_start[s][u].op));
        for (int p = 1; p < NPORTS; p++)
          if (ev_wr[s][p].v)
            otpu_ev_wr(s, p, int'(ev_wr[s][p].space), ev_wr[s][p].addr, ev_wr[s][p].data,
                       int'(ev_wr[s][p].mask));
        for (int u = 0; u < NUNITS; u++)
          if (ev_done[s][u].v)
            otpu_ev_ins(s, EV_COMPLETE, u, int'(ev_done[s][u].slot), ev_done[s][u].pc,
                        int'(ev_done[s][u].op));
        if (ev_chain[s]) otpu_ev_state(s, SS_CHAIN, ev_chain_addr[s], ev_chain_n[s]);
        // a HALT CHAIN to a bad program halts the slice with an error: that is one error record
        if (halted[s] && !halted_q[s] && !error[s])
          otpu_ev_state(s, SS_HALTED, pc[s], icount[s]);
        if (error[s] && !error_q[s]) otpu_ev_state(s, SS_ERROR, pc[s], icount[s]);
      end
    end
  end
endmodule
