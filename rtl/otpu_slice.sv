// otpu_slice.sv - one slice: the sequencer, the units (DMA with its stream engine, MXU with the
// ACT RAM, QUANT, VPU, the collective unit) and the slice's TMEM and DRAM. Every write a unit
// makes passes the fault injector (off by default, rtl/README.md) and is then both applied and
// reported on the event ports (rtl/EVENTS.md).
`include "otpu_config.svh"

module otpu_slice
  import otpu_pkg::*;
#(
  parameter int SID = 0,
  `OTPU_CONFIG_PARAMS,
  parameter int AR = 8,
  parameter int WIN = 8
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  dump,
  // the collective engine
  output logic                  coll_req,
  output cmd_t                  coll_cmd,
  input  logic                  coll_ack,
  input  logic                  coll_ack_err,
  input  logic [31:0]           coll_raddr,
  output logic [31:0]           coll_rdata,
  input  wr_t                   coll_wt,
  // events and status (rtl/EVENTS.md)
  output ev_ins_t               ev_disp,
  output ev_ins_t               ev_exec,
  output ev_ins_t [NUNITS-1:0]  ev_start,
  output ev_ins_t [NUNITS-1:0]  ev_done,
  output wr_t     [NPORTS-1:0]  ev_wr,
  output logic                  ev_chain,
  output logic [31:0]           ev_chain_addr,
  output logic [31:0]           ev_chain_n,
  output logic                  halted,
  output logic                  error,
  output logic [31:0]           pc,
  output logic [31:0]           icount,
  output logic                  busy
);
  logic [NUNITS-1:0] u_start, u_idle, u_done, u_err;
  cmd_t [NUNITS-1:0] u_cmd;

  // TMEM read ports: 0 seq, 1 DMA, 2-3 MXU, 4-6 QUANT, 7-8 VPU, 9 COLL
  logic [9:0][31:0] t_raddr, t_rdata;
  // DRAM word read ports: 0 seq, 1 DMA, 2 MXU scale
  logic [2:0][31:0] m_raddr, m_rdata;
  logic [31:0]      c_addr;
  logic [8*D-1:0]   c_data;

  wr_t [NPORTS-1:0] w_raw, w;      // unit write ports, before and after fault injection
  wr_t              ev_reg;

  // ---- sequencer ---------------------------------------------------------------------------
  otpu_seq #(.SID(SID), `OTPU_CONFIG_PASS, .AR(AR), .WIN(WIN)) u_seq (
    .clk, .rst, .dump,
    .u_start, .u_cmd, .u_idle, .u_done, .u_err,
    .t_raddr(t_raddr[0]), .t_rdata(t_rdata[0]),
    .m_raddr(m_raddr[0]), .m_rdata(m_rdata[0]),
    .ev_disp, .ev_exec, .ev_start, .ev_done, .ev_reg, .ev_chain, .ev_chain_addr, .ev_chain_n,
    .halted, .error, .pc_o(pc), .icount_o(icount), .win_busy(busy)
  );

  // ---- DMA and its stream engine -----------------------------------------------------------
  logic        se_start, se_done, se_err;
  logic [31:0] se_t_raddr, se_m_raddr;
  wr_t         se_wt, se_wm;
  otpu_dma #(.SID(SID), .D(D)) u_dma (
    .clk, .rst, .start(u_start[U_DMA]), .cmd(u_cmd[U_DMA]), .idle(u_idle[U_DMA]),
    .done(u_done[U_DMA]), .err(u_err[U_DMA]),
    .t_raddr(t_raddr[1]), .t_rdata(t_rdata[1]), .m_raddr(m_raddr[1]), .m_rdata(m_rdata[1]),
    .se_start, .se_done, .se_err, .se_t_raddr, .se_m_raddr, .se_wt, .se_wm,
    .wt(w_raw[P_DMA_T]), .wm(w_raw[P_DMA_M])
  );
  otpu_stream #(.SID(SID), .D(D), .TMEM_WORDS(TMEM_WORDS), .DRAM_BYTES(DRAM_BYTES)) u_se (
    .clk, .rst, .start(se_start), .cmd(u_cmd[U_DMA]), .done(se_done), .err(se_err),
    .t_raddr(se_t_raddr), .t_rdata(t_rdata[1]), .m_raddr(se_m_raddr), .m_rdata(m_rdata[1]),
    .wt(se_wt), .wm(se_wm)
  );

  // ---- MXU (holds the ACT RAM) ----------------------------------------------------------------
  otpu_mxu #(.SID(SID), .D(D), .ACT_BLOCKS(ACT_BLOCKS), .AR(AR)) u_mxu (
    .clk, .rst, .dump, .start(u_start[U_MXU]), .cmd(u_cmd[U_MXU]), .idle(u_idle[U_MXU]),
    .done(u_done[U_MXU]), .err(u_err[U_MXU]),
    .c_addr, .c_data, .s_addr(m_raddr[2]), .s_data(m_rdata[2]),
    .t_raddr(t_raddr[3:2]), .t_rdata(t_rdata[3:2]), .wt(w_raw[P_MXU_T]),
    .aw({w[P_QNT_S2], w[P_QNT_S], w[P_QNT_A2], w[P_QNT_A]})
  );

  // ---- QUANT -------------------------------------------------------------------------------
  otpu_quant #(.SID(SID), .D(D), .ACT_BLOCKS(ACT_BLOCKS), .AR(AR)) u_quant (
    .clk, .rst, .start(u_start[U_QUANT]), .cmd(u_cmd[U_QUANT]), .idle(u_idle[U_QUANT]),
    .done(u_done[U_QUANT]), .err(u_err[U_QUANT]),
    .t_raddr(t_raddr[6:4]), .t_rdata(t_rdata[6:4]),
    .wa(w_raw[P_QNT_A]), .wa2(w_raw[P_QNT_A2]), .ws(w_raw[P_QNT_S]), .ws2(w_raw[P_QNT_S2]),
    .wm(w_raw[P_QNT_M])
  );

  // ---- VPU ---------------------------------------------------------------------------------
  otpu_vpu #(.SID(SID)) u_vpu (
    .clk, .rst, .start(u_start[U_VPU]), .cmd(u_cmd[U_VPU]), .idle(u_idle[U_VPU]),
    .done(u_done[U_VPU]), .err(u_err[U_VPU]),
    .t_raddr(t_raddr[8:7]), .t_rdata(t_rdata[8:7]), .wt(w_raw[P_VPU_T])
  );

  // ---- collective unit ---------------------------------------------------------------------
  otpu_colu u_colu (
    .clk, .rst, .start(u_start[U_COLL]), .cmd(u_cmd[U_COLL]), .idle(u_idle[U_COLL]),
    .done(u_done[U_COLL]), .err(u_err[U_COLL]),
    .req(coll_req), .req_cmd(coll_cmd), .ack(coll_ack), .ack_err(coll_ack_err)
  );
  assign t_raddr[9] = coll_raddr;
  assign coll_rdata = t_rdata[9];
  assign w_raw[P_COL_T] = coll_wt;
  assign w_raw[P_SEQ_R] = ev_reg;

  // ---- fault injection on the write ports --------------------------------------------------
  otpu_fault #(.SID(SID)) u_fault (.clk, .rst, .w_in(w_raw), .w_out(w));

  // ---- memories ----------------------------------------------------------------------------
  otpu_tmem #(.SID(SID), .WORDS(TMEM_WORDS), .NR(10), .NW(4)) u_tmem (
    .clk, .dump, .raddr(t_raddr), .rdata(t_rdata),
    .wr({w[P_COL_T], w[P_VPU_T], w[P_MXU_T], w[P_DMA_T]})
  );
  otpu_dram #(.SID(SID), .BYTES(DRAM_BYTES), .D(D), .NR(3), .NW(2)) u_dram (
    .clk, .dump, .raddr(m_raddr), .rdata(m_rdata), .caddr(c_addr), .cdata(c_data),
    .wr({w[P_QNT_M], w[P_DMA_M]})
  );

  assign ev_wr = w;
endmodule
