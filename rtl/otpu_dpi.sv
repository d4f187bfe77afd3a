// otpu_dpi.sv - DPI-C functions the RTL calls (implemented in dpi/).
// Written by dpi/gen_dpi.py from dpi/dpi.def, which also writes dpi/dpi_entry.h:
// edit the description, not this file.
package otpu_dpi;
  // the spaces of otpu_bundle_word (one numbering with otpu_protocol_pkg::SP_*)
  localparam int BS_IMEM = 5;  // instruction memory: 32-bit word index
  localparam int BS_DRAM = 2;
  // the spaces of otpu_dump_word (one numbering with otpu_protocol_pkg::SP_*)
  localparam int DS_TMEM = int'(otpu_protocol_pkg::SP_TMEM);
  localparam int DS_DRAM = int'(otpu_protocol_pkg::SP_DRAM);
  localparam int DS_ACT = int'(otpu_protocol_pkg::SP_ACT);
  localparam int DS_ASCALE = int'(otpu_protocol_pkg::SP_ASCALE);
  localparam int DS_REG = int'(otpu_protocol_pkg::SP_REG);
  localparam int DS_STATE = 6;  // index 0 halted, 1 error, 2 pc, 3 icount, 4 cycles
  localparam int DS_SLOT = 7;  // window slot k: index 16k + field (rtl/otpu_seq.sv's dump)
  // what otpu_bundle_info answers
  localparam int BI_PROG_LEN = 0;  // instructions in prog_<sid>.hex
  localparam int BI_DRAM_WORDS = 1;  // 32-bit words in dram_<sid>.bin (rounded up)
  localparam int BI_ARG0 = 8;  // BI_ARG0 + k: run argument k (R8 + k), k < 8
  // otpu_bundle_word(sid, space, index): the bundle's initial contents (0 past its end); space
  // BS_IMEM, or BS_DRAM (index = byte address / 4)
  import "DPI-C" function int unsigned otpu_bundle_word(input int sid, input int space,
    input longint idx);
  // otpu_bundle_info(sid, what): scalars of the bundle (BI_*)
  import "DPI-C" function int unsigned otpu_bundle_info(input int sid, input int what);
  // otpu_dump_word(sid, space, index, data): one word of the final state; space DS_* (DS_DRAM:
  // index = byte address / 4; DS_ACT: one byte, index = row * ACT_BLOCKS * D + column; DS_ASCALE:
  // index = row * ACT_BLOCKS + block)
  import "DPI-C" function void otpu_dump_word(input int sid, input int space, input longint idx,
    input int unsigned data);
  // The host of a run bundle's host.txt (sim/host.h), played by the driver: the RTL reports the
  // levels its steps wait on and takes the host's DRAM words and restarts. Each slice asks every
  // cycle; nothing is computed on the C side.
  // otpu_host_poll(sid, waiting): a WAITW read that did not hold (1); the WAITW ended (0)
  import "DPI-C" function void otpu_host_poll(input int sid, input int waiting);
  // otpu_host_level(sid, halted, error, collective): the slice halted, stopped with an error,
  // waits at a BAR or GATHER
  import "DPI-C" function void otpu_host_level(input int sid, input int halted, input int error,
    input int collective);
  // otpu_host_dram(sid, addr, data): the host's next DRAM access: 0 none, 1 write data at addr (a
  // byte address), 2 read addr (answered with otpu_host_dram_read)
  import "DPI-C" function int otpu_host_dram(input int sid, output int unsigned addr,
    output int unsigned data);
  import "DPI-C" function void otpu_host_dram_read(input int sid, input int unsigned addr,
    input int unsigned data);
  // otpu_host_run(sid): -1, or restart the halted slice: with a new program of that many
  // instructions (0: keep the program), words otpu_host_prog_word, arguments otpu_host_arg
  import "DPI-C" function int otpu_host_run(input int sid);
  import "DPI-C" function int unsigned otpu_host_prog_word(input int sid, input int idx);
  import "DPI-C" function int unsigned otpu_host_arg(input int sid, input int k);
endpackage
