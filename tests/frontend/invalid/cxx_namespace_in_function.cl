// options: -cl-std=CLC++
// expect: 6:5: error: namespaces can only be defined in global or namespace scope
// Namespaces are defined at file scope or in other namespaces only.
__kernel void k(__global int *out)
{
    namespace inner { }
    out[0] = 1;
}
