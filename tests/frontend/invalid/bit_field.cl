// expect: 5:10: error: bit-fields are not supported in OpenCL
// OpenCL C forbids bit-fields.
typedef struct {
    uint kind;
    uint flags : 28;
} Header;

__kernel void k(__global Header *h)
{
}
