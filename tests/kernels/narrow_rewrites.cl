// options: -cl-std=CL3.0
// Every work-item stores the same bytes over the same `char`/`short`
// elements and reads them back at once: however the stores interleave, a
// reader must only ever see the value all of them write (as on hardware
// with byte stores), never a half-done replacement.

__global char table[24] = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                            9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };

kernel void rewrite(global char *bytes, global short *shorts, global uint *bad)
{
    uint wrong = 0;
    for (int round = 0; round < 8; round++) {
        vstore3((char3)(1, 2, 3), 1, bytes);
        bytes[7] = 5;
        vstore2((short2)(-2, 300), 1, shorts);
        vstore4((char4)(4, 5, 6, 7), 2, table);
        wrong += bytes[3] != 1 || bytes[4] != 2 || bytes[5] != 3 || bytes[7] != 5;
        wrong += shorts[2] != -2 || shorts[3] != 300;
        wrong += table[8] != 4 || table[9] != 5 || table[10] != 6 || table[11] != 7;
    }
    bad[get_global_id(0)] = wrong;
}
