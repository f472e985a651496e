// Pointers to whole arrays (`int (*q)[4] = &a`): read and written through
// `(*q)[i]`, in private and __local memory, passed to helpers, beside
// pointers to rows of a 2D array.

void bump_row(int (*row)[4], int by) {
    for (int i = 0; i < 4; i++)
        (*row)[i] += by;
}

int sum_row(const int (*row)[4]) {
    return (*row)[0] + (*row)[1] + (*row)[2] + (*row)[3];
}

kernel void whole_arrays(global int *out, global const int *in) {
    int g = get_global_id(0);
    int l = get_local_id(0);
    local int shared[4];
    int a[4] = {in[g], 2, 3, 4};
    int b[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    int (*q)[4] = &a;
    (*q)[0] += 10;
    (*q)[in[g] & 3] = 100 + g;
    bump_row(&a, 1);
    bump_row(&b[in[g] % 3], g);
    if (l == 0) {
        local int (*s)[4] = &shared;
        for (int i = 0; i < 4; i++)
            (*s)[i] = i * 1000 + get_group_id(0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    local int (*s)[4] = &shared;
    out[g * 4 + 0] = sum_row(&a);
    out[g * 4 + 1] = (*q)[1] * 1000 + (*q)[3];
    out[g * 4 + 2] = sum_row(&b[0]) + sum_row(&b[1]) + sum_row(&b[2]);
    out[g * 4 + 3] = (*s)[l & 3];
}
