// expect: 4:16: error: a non-vector or non-vectorizable scalar type is an invalid argument to attribute 'vec_type_hint'
// vec_type_hint takes a scalar or vector type, not a struct.
typedef struct { float x, y; } pair;
__attribute__((vec_type_hint(pair))) __kernel void k(__global int *out)
{
    out[0] = 1;
}
