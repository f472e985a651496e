// Kernels for tests/profiling.rs: one that does nothing, and one whose
// running time grows with `iterations` (a dependent chain the compiler
// cannot fold away, since the result is stored).
kernel void empty(global uint *out) {}

kernel void spin(global uint *out, uint iterations) {
    uint x = (uint)get_global_id(0);
    for (uint i = 0; i < iterations; i++) {
        x = x * 1664525u + 1013904223u;
    }
    out[get_global_id(0)] = x;
}
