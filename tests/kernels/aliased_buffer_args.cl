// Pointers of different buffer arguments that the application set to one
// buffer, or to a buffer and sub-buffers of it, point into one object:
// they compare and subtract by their addresses in it, in the kernel, in a
// helper and through a pointer chosen at run time. `k` is q's element
// offset from p where both are regions of one buffer.

static int same(__global const int *a, __global const int *b) { return a == b; }

__kernel void aliased(__global int *p, __global int *q, __global int *out,
                      int k, int pick)
{
    __global int *r = pick ? p : q;
    out[0] = p == q;
    out[1] = p != q;
    out[2] = p < q;
    out[3] = p <= q;
    out[4] = p > q;
    out[5] = p >= q;
    out[6] = (int)(q - p);
    out[7] = p + k == q;
    out[8] = same(p, q);
    out[9] = same(p + k, q);
    out[10] = r == q;
    out[11] = (int)(r - p);
    out[12] = out == p || out == q;
}

// The same addresses as integers kept in variables, in a kernel that
// compares no pointers: the conversion alone must name the allocations.
__kernel void aliased_integers(__global int *p, __global int *q, __global int *out,
                               int k, int pick)
{
    ulong ip = (ulong)p, iq = (ulong)q;
    out[0] = ip == iq;
    out[1] = (int)((long)(iq - ip) / (long)sizeof(int));
}
