// otpu_top.sv - the machine: S slices and the collective engine. Parameters are the Config
// fields of a run bundle (openTPU docs/isa.md; ACT_ROWS = 0 means MCOLS). LANES, PAIR, DSTEP
// and STREAM
// do not change the datapath here (LANES is timing only in openTPU; the ISA simulator accepts
// MM PAIR, QACT DUP, DSTEP and STREAM in every Config, and so does this RTL); they are kept so
// that a build is keyed by the whole Config.
`include "otpu_config.svh"

module otpu_top
  import otpu_pkg::*;
#(
  `OTPU_CONFIG_PARAMS,
  `OTPU_CONFIG_TOP_PARAMS,
  parameter int WIN = 8
) (
  input  logic                           clk,
  input  logic                           rst,
  input  logic                           dump,
  output ev_ins_t [S-1:0]                ev_disp,
  output ev_ins_t [S-1:0]                ev_exec,
  output ev_ins_t [S-1:0][NUNITS-1:0]    ev_start,
  output ev_ins_t [S-1:0][NUNITS-1:0]    ev_done,
  output wr_t     [S-1:0][NPORTS-1:0]    ev_wr,
  output logic    [S-1:0]                ev_chain,
  output logic    [S-1:0][31:0]          ev_chain_addr,
  output logic    [S-1:0][31:0]          ev_chain_n,
  output logic    [S-1:0]                halted,
  output logic    [S-1:0]                error,
  output logic    [S-1:0][31:0]          pc,
  output logic    [S-1:0][31:0]          icount,
  output logic    [S-1:0]                busy
);
  localparam int AR = (ACT_ROWS != 0) ? ACT_ROWS : MCOLS;

  logic [S-1:0]        coll_req, coll_ack, coll_ack_err;
  cmd_t [S-1:0]        coll_cmd;
  logic [S-1:0][31:0]  coll_raddr, coll_rdata;
  wr_t  [S-1:0]        coll_wt;

  for (genvar s = 0; s < S; s++) begin : g_slice
    otpu_slice #(.SID(s), `OTPU_CONFIG_PASS, .AR(AR), .WIN(WIN)) u_slice (
      .clk, .rst, .dump,
      .coll_req(coll_req[s]), .coll_cmd(coll_cmd[s]), .coll_ack(coll_ack[s]),
      .coll_ack_err(coll_ack_err[s]), .coll_raddr(coll_raddr[s]), .coll_rdata(coll_rdata[s]),
      .coll_wt(coll_wt[s]),
      .ev_disp(ev_disp[s]), .ev_exec(ev_exec[s]), .ev_start(ev_start[s]), .ev_done(ev_done[s]),
      .ev_wr(ev_wr[s]), .ev_chain(ev_chain[s]), .ev_chain_addr(ev_chain_addr[s]),
      .ev_chain_n(ev_chain_n[s]),
      .halted(halted[s]), .error(error[s]), .pc(pc[s]), .icount(icount[s]), .busy(busy[s])
    );
  end

  otpu_coll #(.S(S)) u_coll (
    .clk, .rst, .req(coll_req), .req_cmd(coll_cmd), .stopped(halted | error),
    .ack(coll_ack), .ack_err(coll_ack_err), .raddr(coll_raddr), .rdata(coll_rdata),
    .wt(coll_wt)
  );
endmodule
