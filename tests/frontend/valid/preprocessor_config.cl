// options: -DBLOCK=8 -DUSE_FMA -DSCALE=0.5f
// Build-time configuration as applications pass it with -D: #if on values,
// defined(), #elif chains, version checks and stringising in a helper macro.
#ifndef BLOCK
#error "BLOCK must be defined"
#endif

#if BLOCK > 16
#define STEP 4
#elif BLOCK > 4 && defined(USE_FMA)
#define STEP 2
#else
#define STEP 1
#endif

#if defined(USE_FMA)
#define MADD(a, b, c) fma(a, b, c)
#else
#define MADD(a, b, c) ((a) * (b) + (c))
#endif

#if __OPENCL_C_VERSION__ >= 120 && defined(__OPENCL_VERSION__)
#define HAS_12 1
#else
#define HAS_12 0
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

__kernel void configured(__global float *data)
{
    const int base = get_global_id(0) * BLOCK;
    for (int k = 0; k < BLOCK; k += STEP)
        data[base + k] = MADD(data[base + k], SCALE, (float)HAS_12);
#ifdef __ENDIAN_LITTLE__
    data[base] += 0.0f;
#endif
    data[base] += (float)(sizeof(STR(BLOCK)) - 1) + __LINE__ * 0.0f;
}
