// otpu_stream.sv - the DMA's stream engine: DSTEP and STREAM (docs/stream.md). Not implemented
// yet: an instruction it receives completes at once with an error (rtl/README.md, status).
module otpu_stream
  import otpu_pkg::*;
#(
  parameter int SID = 0,
  parameter int D = 32
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        start,
  input  cmd_t        cmd,
  output logic        done,
  output logic        err,
  output logic [31:0] t_raddr,
  input  logic [31:0] t_rdata,
  output logic [31:0] m_raddr,
  input  logic [31:0] m_rdata,
  output wr_t         wt,
  output wr_t         wm
);
  assign t_raddr = '0;
  assign m_raddr = '0;
  assign wt = '0;
  assign wm = '0;
  always_ff @(posedge clk) begin
    done <= !rst && start;
    err <= !rst && start;
  end
endmodule
