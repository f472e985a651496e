// expect: 4:10: error: 'tuning_params.h' file not found
// An #include of a header that does not exist: the caret is on the file
// name.
#include "tuning_params.h"
__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 1.0f;
}
