// Program-scope __constant tables (scalars, vectors, structs, partly
// initialised and designated), a kernel-scope __constant table, private
// arrays and structs from initializer lists, and a helper that reads a
// table through a __constant pointer. out[i] is recomputed on the host.

typedef struct {
    int scale;
    float4 bias;
} Step;

__constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
__constant float4 weights[3] = {(float4)(1.0f, 2.0f, 3.0f, 4.0f), (float4)(0.5f), 0};
__constant Step steps[2] = {{3, (float4)(1.0f)}, {.bias = (float4)(0.0f, 0.0f, 0.0f, 2.0f), .scale = -1}};
__constant int sparse[10] = {[2] = 20, [7] = 70, 80};
__constant uint mask = 0xffu;

int pick(__constant int *table, int i) { return table[i & 7]; }

__kernel void constant_tables(__global int *out)
{
    __constant int local_table[4] = {1000, 2000, 3000, 4000};
    int i = get_global_id(0);
    int squares[5] = {0, 1, 4, 9, 16};
    int3 v = {i, 2 * i, 3 * i};
    Step s = {i % 3, (float4)(0.25f)};
    __constant int *p = primes + 1;

    float4 w = weights[i % 3];
    int acc = pick(primes, i) + squares[i % 5] + p[i % 7];
    acc += steps[i & 1].scale * (int)steps[i & 1].bias.w;
    acc += sparse[i % 10] + local_table[i & 3];
    acc += (int)(w.x + w.y + w.z + w.w) + v.y - v.z;
    acc += s.scale + (int)(s.bias.x * 4.0f);
    out[i] = acc & (int)mask;
}
