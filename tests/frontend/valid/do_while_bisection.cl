// Root finding by bisection and Newton steps: do/while with break and
// continue, a bounded iteration count, and early exit.
float f(float x, float c) { return x * x * x - c; }
float df(float x) { return 3.0f * x * x; }

__kernel void cube_root(__global const float *values, __global float *roots,
                        __global int *iterations)
{
    const int i = get_global_id(0);
    const float c = values[i];
    float lo = 0.0f, hi = fmax(1.0f, c);
    int it = 0;
    do {
        const float mid = 0.5f * (lo + hi);
        if (f(mid, c) > 0.0f)
            hi = mid;
        else
            lo = mid;
        if (hi - lo > 1e-2f)
            continue;
        break;
    } while (++it < 64);

    float x = 0.5f * (lo + hi);
    int k = 0;
    do {
        const float d = df(x);
        if (d == 0.0f)
            break;
        x -= f(x, c) / d;
    } while (++k < 4);
    roots[i] = x;
    iterations[i] = it + k;
}
