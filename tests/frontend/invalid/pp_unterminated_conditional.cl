// expect: 3:2: error: unterminated conditional directive
// An #ifdef without #endif: reported at the directive name.
#ifdef USE_FAST_PATH
__kernel void fast(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
