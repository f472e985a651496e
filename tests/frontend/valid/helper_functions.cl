// A program split into helpers: forward declarations, static and inline
// functions, helpers taking __local and __constant pointers, functions
// returning vectors and structs, and a kernel calling another kernel.
typedef struct { float sum; int count; } Stats;

static inline float sq(float v);
float4 load_rgba(__global const uchar *p, int i);
Stats accumulate(Stats s, float v);
void stage(__local float *dst, __global const float *src, int i);

__kernel void normalise(__global float *data, const int n)
{
    const int i = get_global_id(0);
    if (i < n)
        data[i] = data[i] / (1.0f + sq(data[i]));
}

__kernel void stats(__global const uchar *rgba, __global float *means,
                    __local float *tile, __constant float *bias)
{
    const int i = get_global_id(0);
    stage(tile, means, i);
    Stats s = { 0.0f, 0 };
    const float4 p = load_rgba(rgba, i);
    s = accumulate(s, p.x);
    s = accumulate(s, p.y);
    s = accumulate(s, p.z);
    means[i] = s.sum / s.count + bias[0] + tile[get_local_id(0)];
    normalise(means, 1);
}

static inline float sq(float v) { return v * v; }

float4 load_rgba(__global const uchar *p, int i)
{
    return convert_float4(vload4(i, p)) * (1.0f / 255.0f);
}

Stats accumulate(Stats s, float v)
{
    s.sum += v;
    s.count++;
    return s;
}

void stage(__local float *dst, __global const float *src, int i)
{
    dst[get_local_id(0)] = src[i];
    barrier(CLK_LOCAL_MEM_FENCE);
}
