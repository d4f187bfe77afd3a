// otpu_dram.sv - the slice's private DRAM: DRAM_BYTES bytes, little endian, stored as 32-bit
// words. NR word read ports (byte address, aligned), one chunk read port (D bytes from an aligned
// byte address, for the MXU stream) and NW write ports with a byte mask. Loaded from the bundle at
// time 0 (the rest is zero). Above 256 MiB (the board's 4 GiB) the words live in an associative
// array holding only the words ever loaded or written, and the dump lists only those.
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
  localparam bit SPARSE = BYTES > 64'h1000_0000;
  localparam longint FLATW = SPARSE ? 1 : WORDS;
  bit [31:0] mem [FLATW];  // (2-state: zero at time 0, the image loaded over it)
  logic [31:0] smem [longint unsigned];

  initial begin
    longint n;
    logic [31:0] w;
    n = longint'(otpu_dpi::otpu_bundle_info(SID, otpu_dpi::BI_DRAM_WORDS));
    if (SPARSE) begin
      for (longint i = 0; i < n; i++) begin
        w = otpu_dpi::otpu_bundle_word(SID, otpu_dpi::BS_DRAM, i);
        if (w != 0) smem[i] = w;
      end
    end else begin
      for (longint i = 0; i < n && i < WORDS; i++)
        mem[i] = otpu_dpi::otpu_bundle_word(SID, otpu_dpi::BS_DRAM, i);
    end
  end

  function automatic logic [31:0] rd(input longint unsigned w);
    if (w >= longint'(WORDS)) return 32'd0;
    if (SPARSE) return smem.exists(w) ? smem[w] : 32'd0;
    return mem[w];
  endfunction

  always_comb begin
    for (int p = 0; p < NR; p++) rdata[p] = rd(longint'(raddr[p] >> 2));
    for (int k = 0; k < D / 4; k++) cdata[32 * k +: 32] = rd(longint'(caddr >> 2) + longint'(k));
  end

  always_ff @(posedge clk) begin
    // the host's words (host.txt), one a cycle: read as it is before this edge, or written at
    // it (a port's write of the same word in the same cycle wins)
    automatic logic [31:0] h_addr, h_data;
    automatic int h_kind = otpu_dpi::otpu_host_dram(SID, h_addr, h_data);
    if (h_kind == 2) begin
      otpu_dpi::otpu_host_dram_read(SID, h_addr, rd(longint'(h_addr >> 2)));
    end else if (h_kind == 1 && longint'(h_addr >> 2) < WORDS) begin
      if (SPARSE) smem[longint'(h_addr >> 2)] <= h_data;
      else mem[longint'(h_addr >> 2)] <= h_data;
    end
    for (int p = 0; p < NW; p++) begin
      if (wr[p].v && longint'(wr[p].addr >> 2) < WORDS) begin
        logic [31:0] m;
        longint unsigned a;
        a = longint'(wr[p].addr >> 2);
        m = {{8{wr[p].mask[3]}}, {8{wr[p].mask[2]}}, {8{wr[p].mask[1]}}, {8{wr[p].mask[0]}}};
        if (SPARSE) smem[a] <= (rd(a) & ~m) | (wr[p].data & m);
        else mem[a] <= (mem[a] & ~m) | (wr[p].data & m);
      end
    end
  end

  // the dump: every word, or (sparse) every word ever loaded or written
  always_ff @(posedge clk) begin
    if (dump) begin
      if (SPARSE) foreach (smem[k]) otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_DRAM, longint'(k), smem[k]);
      else for (longint i = 0; i < WORDS; i++) otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_DRAM, i, mem[i]);
    end
  end
endmodule
