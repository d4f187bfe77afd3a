// otpu_dram.sv - the slice's private DRAM: DRAM_BYTES bytes, little endian, stored as 32-bit
// words. NR word read ports (byte address, aligned), one chunk read port (D bytes from an aligned
// byte address, for the MXU stream) and NW write ports with a byte mask. Loaded from the bundle at
// time 0 (the rest is zero).
module otpu_dram
  import otpu_pkg::*;
#(
  parameter int SID = 0,
  parameter longint BYTES = 262144,
  parameter int D = 32,
  parameter int NR = 1,
  parameter int NW = 1
) (
  input  logic                 clk,
  input  logic                 dump,
  input  logic [NR-1:0][31:0]  raddr,     // byte addresses
  output logic [NR-1:0][31:0]  rdata,
  input  logic [31:0]          caddr,     // chunk byte address
  output logic [8*D-1:0]       cdata,
  input  wr_t  [NW-1:0]        wr         // addr: byte address of the aligned word
);
  localparam longint WORDS = BYTES / 4;
  logic [31:0] mem [WORDS];

  initial begin
    longint n;
    n = longint'(otpu_dpi::otpu_bundle_info(SID, otpu_dpi::BI_DRAM_WORDS));
    for (longint i = 0; i < WORDS; i++)
      mem[i] = (i < n) ? otpu_dpi::otpu_bundle_word(SID, otpu_dpi::BS_DRAM, i) : 32'd0;
  end

  function automatic logic [31:0] rd(input longint unsigned w);
    return (w < longint'(WORDS)) ? mem[w] : 32'd0;
  endfunction

  always_comb begin
    for (int p = 0; p < NR; p++) rdata[p] = rd(longint'(raddr[p] >> 2));
    for (int k = 0; k < D / 4; k++) cdata[32 * k +: 32] = rd(longint'(caddr >> 2) + longint'(k));
  end

  always_ff @(posedge clk) begin
    for (int p = 0; p < NW; p++) begin
      if (wr[p].v && longint'(wr[p].addr >> 2) < WORDS) begin
        logic [31:0] m;
        m = {{8{wr[p].mask[3]}}, {8{wr[p].mask[2]}}, {8{wr[p].mask[1]}}, {8{wr[p].mask[0]}}};
        mem[wr[p].addr >> 2] <= (mem[wr[p].addr >> 2] & ~m) | (wr[p].data & m);
      end
    end
  end

  always_ff @(posedge clk) begin
    if (dump)
      for (longint i = 0; i < WORDS; i++) otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_DRAM, i, mem[i]);
  end
endmodule
