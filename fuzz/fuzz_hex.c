/* fuzz_hex.c - the program reader (prog_<s>.hex, otpu-sim disasm) on any bytes; a program it
 * accepts is loaded into a machine and disassembled, instruction by instruction. */
#include <stdint.h>
#include <stdlib.h>

#include "bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t *w;
    size_t n;
    char err[1024];
    if (otpu_hex_parse((const char *)data, size, "prog_0.hex", 1024, &w, &n, err, sizeof err))
        return 0;
    otpu_config cfg = otpu_config_default();
    cfg.IMEM_WORDS = 1024;
    cfg.DRAM_BYTES = 4096;
    otpu_error e;
    otpu_machine *m = otpu_machine_new(&cfg, &e);
    if (m && otpu_machine_load_program(m, 0, w, n, &e) == 0)
        for (size_t pc = 0; pc < n / 8; pc++) {
            otpu_instr in = otpu_decode(w + 8 * pc);
            char text[512];
            otpu_disasm(&in, text, sizeof text);
        }
    otpu_machine_free(m);
    free(w);
    return 0;
}
