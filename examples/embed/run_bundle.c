/* run_bundle.c - the C model from an installed otpu-lockstep: run a bundle, print slice 0's end.
 *   cc run_bundle.c $(pkg-config --cflags --libs otpusim) -o run_bundle && ./run_bundle DIR */
#include <otpu/bundle.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    otpu_bundle b;
    otpu_error err;
    char why[1024];
    if (argc != 2 || otpu_bundle_read(argv[1], &b, why, sizeof why))
        return fprintf(stderr, "%s\n", argc == 2 ? why : "usage: run_bundle DIR"), 2;
    otpu_machine *m = otpu_bundle_machine(&b, &err);
    int rc = !m ? 2 : otpu_machine_run(m, 0) ? 1 : 0;
    if (m)
        printf("%s: %llu instructions, pc %u, %s\n", argv[1],
               (unsigned long long)otpu_machine_steps(m), otpu_machine_view(m, 0).pc,
               rc ? otpu_machine_error(m)->msg : "halted");
    otpu_machine_free(m);
    otpu_bundle_free(&b);
    return rc;
}
