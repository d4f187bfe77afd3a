// otpu_tmem.sv - the slice's TMEM: TMEM_WORDS x 32 bits, NR asynchronous read ports and one
// write port per writing unit. Writes land at the clock edge; the scoreboard guarantees that no
// two ports write the same word in one cycle.
module otpu_tmem
  import otpu_pkg::*;
#(
  parameter int SID = 0,
  parameter int WORDS = 65536,
  parameter int NR = 1,
  parameter int NW = 1
) (
  input  logic                 clk,
  input  logic                 dump,
  input  logic [NR-1:0][31:0]  raddr,
  output logic [NR-1:0][31:0]  rdata,
  input  wr_t  [NW-1:0]        wr
);
  bit [31:0] mem [WORDS];  // (2-state: zero at time 0)

  always_comb begin
    for (int p = 0; p < NR; p++)
      rdata[p] = (raddr[p] < 32'(WORDS)) ? mem[raddr[p]] : 32'd0;
  end

  always_ff @(posedge clk) begin
    for (int p = 0; p < NW; p++)
      if (wr[p].v && wr[p].addr < 32'(WORDS)) mem[wr[p].addr] <= wr[p].data;
  end

  always_ff @(posedge clk) begin
    if (dump)
      for (int i = 0; i < WORDS; i++) otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_TMEM, longint'(i), mem[i]);
  end
endmodule
