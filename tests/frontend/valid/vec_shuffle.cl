// shuffle and shuffle2 with uint masks: reversing lanes, interleaving two
// vectors, and broadcasting one lane.
__kernel void shuffles(__global const float4 *a, __global const float4 *b,
                       __global float4 *rev, __global float8 *inter, __global uint4 *bc)
{
    const int i = get_global_id(0);
    const uint4 reverse_mask = (uint4)(3, 2, 1, 0);
    rev[i] = shuffle(a[i], reverse_mask);
    const uint8 interleave = (uint8)(0, 4, 1, 5, 2, 6, 3, 7);
    inter[i] = shuffle2(a[i], b[i], interleave);
    const uint4 v = (uint4)(10u, 20u, 30u, 40u);
    bc[i] = shuffle(v, (uint4)(2u));
}
