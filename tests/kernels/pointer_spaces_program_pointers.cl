// options: -cl-std=CL2.0
// Program-scope pointer variables holding __constant data (aligned
// tables too), initialised and assigned at run time by one kernel, read
// by another in later launches.

constant float low[4] = {1.0f, 2.0f, 3.0f, 4.0f};
constant float high[4] __attribute__((aligned(32))) = {10.0f, 20.0f, 30.0f, 40.0f};
constant int ints[2] = {7, 9};
constant float *global coefficients = low;
constant float *global cursor = &high[1];
constant uchar *global bytes = (constant uchar *)ints;
global int counter = 5;
global int *global where = &counter;

kernel void choose(int which) {
    if (which == 0)
        coefficients = low;
    else
        coefficients = high + 2;
    cursor = which ? &low[3] : 0;
    bytes = (constant uchar *)&ints[which];
    where = which ? where : &counter;
}

kernel void read_through(global float *out) {
    int i = get_global_id(0);
    out[4 * i] = coefficients[i & 1];
    out[4 * i + 1] = cursor ? *cursor : -1.0f;
    out[4 * i + 2] = bytes[i & 3];
    out[4 * i + 3] = *where;
}
