// expect: 4:21: error: redefinition of enumerator 'MODE_ADD'
// An enumerator declared in two enums.
enum BlendMode { MODE_ADD, MODE_MULTIPLY };
enum Op { MODE_SUB, MODE_ADD };

__kernel void k(__global int *out)
{
    out[get_global_id(0)] = MODE_MULTIPLY;
}
