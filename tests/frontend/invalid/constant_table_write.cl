// expect: 7:16: error: read-only variable is not assignable
// Writing into a program-scope __constant table.
__constant float weights[3] = { 0.25f, 0.5f, 0.25f };

__kernel void k(__global float *out)
{
    weights[1] = out[0];
    out[get_global_id(0)] = weights[1];
}
