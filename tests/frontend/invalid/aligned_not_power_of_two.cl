// expect: 3:31: error: requested alignment is not a power of 2
// aligned() takes a power of two: reported at the attribute name.
typedef struct __attribute__((aligned(12))) {
    float3 p;
} Point;

__kernel void k(__global Point *p)
{
}
