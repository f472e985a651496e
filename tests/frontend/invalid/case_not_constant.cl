// expect: 6:10: error: expression is not an integer constant expression
// Case labels must be integer constant expressions.
__kernel void k(__global int *data, const int limit)
{
    switch (data[0]) {
    case limit:
        data[1] = 1;
        break;
    default:
        break;
    }
}
