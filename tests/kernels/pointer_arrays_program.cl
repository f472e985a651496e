// options: -cl-std=CL3.0
// Program-scope arrays of pointers, kept from one launch to the next
// (tests/pointer_members.rs checks every value against the host).

constant int t0[4] = { 1, 2, 3, 4 };
constant int t1[4] = { 10, 20, 30, 40 };
constant int *tabs[2] = { t0, t1 + 1 };
global int cells[8];
global int *slots[3] = { cells, cells + 4 };

kernel void read_tabs(global const int *pick, global int *out) {
    int i = get_global_id(0);
    int c = pick[i];
    constant int *p = tabs[c];
    out[i * 3] = p[i % 3];
    out[i * 3 + 1] = slots[2] == 0;
    out[i * 3 + 2] = tabs[1 - c][0];
}

kernel void retarget(void) {
    tabs[0] = t1 + 2;
    slots[2] = cells + 6;
    *slots[2] = 77;
    *slots[0] = 5;
    slots[1][1] = 9;
}

kernel void read_after(global int *out) {
    out[0] = tabs[0][0];
    out[1] = *slots[2];
    out[2] = cells[0];
    out[3] = cells[5];
    out[4] = slots[1] - slots[0];
}
