// expect: 7:30: error: invalid application of 'sizeof' to an incomplete type
// sizeof a struct that is only declared.
struct Opaque;

__kernel void k(__global int *data)
{
    data[get_global_id(0)] = sizeof(struct Opaque);
}
