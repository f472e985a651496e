/* The host side of tests/goto.rs: runs tests/kernels/goto.cl's kernels as
 * C, one call per work-item, and prints each kernel's name and outputs. */
#include <stddef.h>
#include <stdio.h>

#define kernel
#define global
static size_t current_id;
static size_t get_global_id(unsigned dimension) {
    (void)dimension;
    return current_id;
}

#include "../kernels/goto.cl"

#define ITEMS 256

static void run(const char *name, void (*k)(int *)) {
    static int out[ITEMS];
    for (current_id = 0; current_id < ITEMS; current_id++)
        k(out);
    printf("%s", name);
    for (int i = 0; i < ITEMS; i++)
        printf(" %d", out[i]);
    printf("\n");
}

int main(void) {
    run("forward_skip", forward_skip);
    run("backward", backward);
    run("out_of_loops", out_of_loops);
    run("into_loop", into_loop);
    run("switch_cases", switch_cases);
    run("continue_point", continue_point);
    run("irreducible", irreducible);
    return 0;
}
