// expect: 6:23: error: variables in the local address space can only be declared in the outermost scope of a kernel function
// __local variables must be declared at kernel function scope.
__kernel void k(__global float *data)
{
    if (get_local_id(0) == 0) {
        __local float flag;
        flag = data[0];
    }
}
