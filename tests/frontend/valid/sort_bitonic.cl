// One step of a bitonic sort network over uint keys with float payloads,
// the direction chosen from the stage bits, as in GPU sort samples.
__kernel void bitonic_step(__global uint *keys, __global float *values,
                           const uint stage, const uint pass_of_stage, const uint ascending)
{
    const uint tid = get_global_id(0);
    const uint pair_distance = 1u << (stage - pass_of_stage);
    const uint block_width = 2u * pair_distance;
    const uint left = (tid % pair_distance) + (tid / pair_distance) * block_width;
    const uint right = left + pair_distance;
    const uint same_direction_block = 1u << stage;
    uint dir = ascending;
    if ((tid / same_direction_block) % 2u == 1u)
        dir = 1u - dir;
    const uint lk = keys[left];
    const uint rk = keys[right];
    const bool swap = dir ? (lk > rk) : (lk < rk);
    if (swap) {
        keys[left] = rk;
        keys[right] = lk;
        const float lv = values[left];
        values[left] = values[right];
        values[right] = lv;
    }
}
