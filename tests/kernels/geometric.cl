// length, distance, normalize and their fast_ forms on 1-4 lane floats.
// Each work-item reads four floats (the lanes it uses) and two more for the
// second point of distance.
#define GEOMETRIC(T, N)                                                  \
__kernel void geometric_##T(__global const float *in, __global float *out) {  \
    size_t i = get_global_id(0);                                               \
    T p = LOAD_##N(in + 8 * i), q = LOAD_##N(in + 8 * i + 4);                          \
    __global float *o = out + 16 * i;                                          \
    o[0] = length(p);                                                          \
    o[1] = distance(p, q);                                                     \
    o[2] = fast_length(p);                                                     \
    o[3] = fast_distance(p, q);                                                \
    T n = normalize(p), f = fast_normalize(p);                                 \
    STORE_##N(n, o + 4);                                                       \
    STORE_##N(f, o + 8);                                                       \
}
#define LOAD_1(p) (p)[0]
#define LOAD_2(p) vload2(0, (p))
#define LOAD_3(p) vload3(0, (p))
#define LOAD_4(p) vload4(0, (p))
#define STORE_1(v, p) (p)[0] = (v)
#define STORE_2(v, p) vstore2((v), 0, (p))
#define STORE_3(v, p) vstore3((v), 0, (p))
#define STORE_4(v, p) vstore4((v), 0, (p))
GEOMETRIC(float, 1)
GEOMETRIC(float2, 2)
GEOMETRIC(float3, 3)
GEOMETRIC(float4, 4)
