// The addresses of program-scope __constant variables (aligned ones too)
// given to helpers, indexed and moved.

constant float table[8] __attribute__((aligned(32))) = {1.5f, 2.5f, 3.5f, 4.5f,
                                                        5.5f, 6.5f, 7.5f, 8.5f};
constant int small[3] __attribute__((aligned(16))) = {10, 20, 30};
constant float scale = 0.25f;
typedef struct { int a; float4 v; } pair;
constant pair pairs[2] = {{1, (float4)(1, 2, 3, 4)}, {2, (float4)(5, 6, 7, 8)}};

float sum4(constant float *p) { return p[0] + p[1] + p[2] + p[3]; }
int pick(constant int *p, int i) { return p[i]; }
float deref(constant float *p) { return *p; }
float4 vec_of(constant pair *p, int i) { return p[i].v; }
constant float *advance(constant float *p, int n) { return p + n; }

kernel void constant_addresses(global float *out) {
    int i = get_global_id(0);
    constant float *t = table;
    constant float *u = &table[i & 3];
    out[5 * i] = sum4(u);
    out[5 * i + 1] = pick(small, i % 3) + pick(&small[1], (i & 1));
    out[5 * i + 2] = deref(&scale) * (t + 4)[i & 3];
    out[5 * i + 3] = vec_of(pairs, i & 1).s2 + vec_of(&pairs[1], 0).w;
    out[5 * i + 4] = *advance(table, i & 7) + advance(u, 1)[0];
}
