// expect: 3:30: error: unknown type name 'foo'
// vec_type_hint names a type.
__attribute__((vec_type_hint(foo))) __kernel void k(__global int *out)
{
    out[0] = 1;
}
