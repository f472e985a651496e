// Debug output with printf, as left in kernels during development: format
// strings with scalars, a vector conversion (%v4hlf) and a pointer.
__kernel void debug_print(__global const float4 *data, const int verbose)
{
    const int i = get_global_id(0);
    const float4 v = data[i];
    if (verbose && i == 0) {
        printf("work-item %d of %d: first element %f\n", i, (int)get_global_size(0), v.x);
        printf("vector: %v4hlf\n", v);
        printf("%s at %p\n", "data", (__global const void *)data);
    }
}
