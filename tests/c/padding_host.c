/* The host side of tests/padding.rs: runs the plain-C kernels of
 * tests/kernels/padding.cl as C, one call per work-item, and prints each
 * kernel's name and outputs. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define kernel
#define global
#define private
typedef unsigned char uchar;
typedef unsigned int uint;
static size_t current_id;
static size_t get_global_id(unsigned dimension) {
    (void)dimension;
    return current_id;
}

/* Braces left out on purpose: the kernels test brace elision. */
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include "../kernels/padding.cl"

#define ITEMS 64

static void run(const char *name, void (*k)(int *), int per_item) {
    static int out[ITEMS * 64];
    memset(out, 0, sizeof out);
    for (current_id = 0; current_id < ITEMS; current_id++)
        k(out);
    printf("%s", name);
    for (int i = 0; i < ITEMS * per_item; i++)
        printf(" %d", out[i]);
    printf("\n");
}

int main(void) {
    run("struct_bytes", struct_bytes, 20);
    run("bool_bytes", bool_bytes, 8);
    run("struct_views", struct_views, 8);
    run("float_views", float_views, 4);
    run("round_trips", round_trips, 4);
    run("designators", designators, 40);
    run("offsets", offsets, 3);
    return 0;
}
