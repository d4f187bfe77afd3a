/* replay.c - runs fuzz inputs through a fuzz target without libFuzzer: every file named, and
 * every file in every folder named, once. The test suite replays the committed seeds and the
 * regression inputs (inputs that once crashed) this way in every build, the sanitizer build
 * included. Exit 0 when every input ran (a crash ends the process, as it should). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int one(const char *path, unsigned *n)
{
    char err[1024], *data;
    size_t len;
    if (otpu_input_read(path, (size_t)64 << 20, &data, &len, err, sizeof err)) {
        fprintf(stderr, "replay: %s\n", err);
        return -1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    free(data);
    ++*n;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned n = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) {
            fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (one(argv[i], &n))
                return 2;
            continue;
        }
        struct dirent **names;
        int k = scandir(argv[i], &names, NULL, alphasort);
        for (int j = 0; j < k; j++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[j]->d_name);
            if (names[j]->d_name[0] != '.' && one(path, &n))
                return 2;
            free(names[j]);
        }
        free(names);
    }
    printf("replay: %u inputs ran\n", n);
    return n ? 0 : 2;
}
