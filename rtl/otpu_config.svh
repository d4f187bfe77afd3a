// otpu_config.svh - lists several modules of the RTL declare alike, written once here so that
// they cannot drift apart: the Config parameters (otpu_top, otpu_slice, otpu_seq and the
// testbench tops; the C++ side sets them by name with -G), the handshake every unit has with
// the sequencer, and the word read ports of the sequencer, the DMA and the stream engine. Each
// macro is a
// comma-separated piece of a parameter or port list; the module adds its own around it.
`ifndef OTPU_CONFIG_SVH
`define OTPU_CONFIG_SVH

// The Config fields that size the machine (openTPU docs/isa.md), default Config values.
`define OTPU_CONFIG_PARAMS \
  parameter int S = 1, \
  parameter int D = 32, \
  parameter int MCOLS = 8, \
  parameter int ACT_BLOCKS = 64, \
  parameter int TMEM_WORDS = 65536, \
  parameter longint DRAM_BYTES = 262144, \
  parameter int IMEM_WORDS = 65536

// ... passed on to an instance by name
`define OTPU_CONFIG_PASS \
  .S(S), .D(D), .MCOLS(MCOLS), .ACT_BLOCKS(ACT_BLOCKS), .TMEM_WORDS(TMEM_WORDS), \
  .DRAM_BYTES(DRAM_BYTES), .IMEM_WORDS(IMEM_WORDS)

// The rest of the Config, taken by the tops only, so that a build is keyed by the whole Config
// (otpu_top.sv says why they do not change the datapath; ACT_ROWS = 0 means MCOLS).
`define OTPU_CONFIG_TOP_PARAMS \
  parameter int LANES = 8, \
  parameter int PAIR = 0, \
  parameter int DSTEP = 0, \
  parameter int STREAM = 0, \
  parameter int ACT_ROWS = 0

`define OTPU_CONFIG_TOP_PASS \
  .LANES(LANES), .PAIR(PAIR), .DSTEP(DSTEP), .STREAM(STREAM), .ACT_ROWS(ACT_ROWS)

// A unit's side of its handshake with the sequencer (otpu_seq.sv) or, for the stream engine,
// with the DMA, with the clock and reset. A unit the sequencer starts has an idle output too.
`define OTPU_UNIT_PORTS \
  input  logic clk, \
  input  logic rst, \
  input  logic start, \
  input  cmd_t cmd, \
  output logic done, \
  output logic err

// One TMEM word read port and one DRAM word read port (byte address).
`define OTPU_WORD_READ_PORTS \
  output logic [31:0] t_raddr, \
  input  logic [31:0] t_rdata, \
  output logic [31:0] m_raddr, \
  input  logic [31:0] m_rdata

`endif
