// expect: 4:16: error: typedef redefinition with different types
// A typedef name redefined as another type.
typedef float real;
typedef double real;

__kernel void k(__global real *data)
{
    data[get_global_id(0)] = 0;
}
