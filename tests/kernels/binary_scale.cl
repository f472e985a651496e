// options: -D FACTOR=3 -cl-kernel-arg-info
// Built from source, saved as a binary, loaded and run again
// (tests/program_binaries.rs). FACTOR comes from the options, so a binary
// that lost them would compute something else.
#define OFFSET 7

int scaled(int x) { return x * FACTOR + OFFSET; }

kernel void scale(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    out[i] = scaled(in[i]);
}

kernel void fill(global int *out, int value) {
    out[get_global_id(0)] = value;
}
