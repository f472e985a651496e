// Structs with explicit layout attributes, as used to match host structs:
// an aligned(16) fluid cell and a packed 7-byte record read byte-wise.
typedef struct __attribute__((aligned(16))) {
    float density;
    float pressure;
    int neighbours;
} FluidCell;

typedef struct __attribute__((packed)) {
    uchar kind;
    ushort id;
    uint flags;
} PackedRecord;

struct Bounds {
    float3 lo;
    float3 hi;
} __attribute__((aligned(32)));

__kernel void update_pressure(__global FluidCell *cells, const float k, const float rest)
{
    const int i = get_global_id(0);
    FluidCell c = cells[i];
    c.pressure = k * (c.density - rest);
    cells[i] = c;
}

__kernel void decode_records(__global const PackedRecord *records, __global uint *flags,
                             __global ushort *ids)
{
    const int i = get_global_id(0);
    flags[i] = records[i].flags | (uint)records[i].kind << 24;
    ids[i] = records[i].id;
}

__kernel void clamp_to_bounds(__global float *xyz, const struct Bounds b)
{
    const int i = get_global_id(0);
    float3 p = vload3(i, xyz);
    p = clamp(p, b.lo, b.hi);
    vstore3(p, i, xyz);
}
