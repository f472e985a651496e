// Structs with char/short members and unions shared with the host
// (tests/records.rs declares the same types with #[repr(C)]): the device
// must see the host's bytes, and narrow members written by neighbouring
// work-items must not lose each other's writes.

typedef struct {
    float x;
    uchar flags;
    short id;
} Item;

typedef struct {
    uchar a;
    uchar b;
    char c;
} Tiny;

typedef union {
    float f;
    uint u;
    uchar b[4];
} Pun;

typedef struct {
    char tag;
    Pun value;
    ushort count;
} Tagged;

typedef union {
    Item item;
    uint words[2];
    uchar4 bytes;
} Wrapped;

typedef struct {
    char c;
    long l;
    uchar3 v;
    short s[3];
} Mixed;

typedef union {
    ulong l;
    uint w[2];
    ushort h[4];
} Wide;

// By value in and out of a helper.
Item bump(Item it, uchar k)
{
    it.flags += k;
    it.id -= k;
    it.x *= 2.0f;
    return it;
}

// Whole-struct read, modify, write per work-item.
__kernel void update_items(__global Item *items)
{
    size_t i = get_global_id(0);
    Item it = items[i];
    items[i] = bump(it, (uchar)(i & 7));
}

// Neighbouring work-items write the two narrow members that share a word.
__kernel void neighbours(__global Item *items, __global Tiny *tiny)
{
    uint i = get_global_id(0);
    if (i & 1)
        items[i >> 1].id = (short)(-(int)i);
    else
        items[i >> 1].flags = (uchar)(i * 7u);
    tiny[i].b = (uchar)(i + 3u);
    tiny[i].c = (char)(tiny[i].a - 100);
}

// Structs with char members passed by value.
__kernel void by_value(__global Item *out, Tiny t, Item base, Mixed m)
{
    uint i = get_global_id(0);
    Item r;
    r.x = base.x * (float)t.a + (float)i;
    r.flags = (uchar)(t.b + base.flags);
    r.id = (short)(t.c + base.id + m.s[2] + m.c + (short)m.l + m.v.z);
    out[i] = r;
}

// A union seen as float, uint and bytes.
__kernel void pun(__global const float *in, __global uint *bits, __global uchar4 *bytes,
                  __global float *negated)
{
    uint i = get_global_id(0);
    Pun p;
    p.f = in[i];
    bits[i] = p.u;
    bytes[i] = (uchar4)(p.b[0], p.b[1], p.b[2], p.b[3]);
    p.b[3] ^= (uchar)0x80;
    negated[i] = p.f;
}

// A union inside a struct, a struct inside a union, and 64-bit members.
__kernel void nested(__global Tagged *tagged, __global Wrapped *wrapped, __global Wide *wide)
{
    uint i = get_global_id(0);
    Tagged t = tagged[i];
    t.tag += 1;
    t.value.u += i;
    t.count = (ushort)(t.count + t.value.b[0]);
    tagged[i] = t;

    wrapped[i].item.flags = (uchar)(wrapped[i].words[0] & 0xff);
    wrapped[i].words[1] ^= 0x00010000u;
    wrapped[i].bytes.x = wrapped[i].bytes.w;

    Wide w = wide[i];
    w.h[1] = (ushort)(w.w[1] >> 16);
    w.l += (ulong)i << 32;
    wide[i] = w;
}

// A __local array of structs with narrow members, exchanged between
// neighbours (the work-group is 64 wide).
__kernel void local_items(__global const Item *in, __global Item *out)
{
    __local Item tile[64];
    uint l = get_local_id(0);
    uint i = get_global_id(0);
    tile[l] = in[i];
    tile[l].flags = (uchar)(tile[l].flags + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    Item next = tile[(l + 1) & 63];
    next.id = (short)(next.id + (short)l);
    out[i] = next;
}

// Private arrays of small structs, through an index and a pointer.
__kernel void private_items(__global uint *out)
{
    uint i = get_global_id(0);
    Tiny arr[5];
    for (int k = 0; k < 5; k++) {
        arr[k].a = (uchar)(i + k);
        arr[k].b = (uchar)(i * k);
        arr[k].c = (char)(-k);
    }
    Tiny *p = arr;
    p[2].b = (uchar)(p[2].b + 1);
    uint sum = 0;
    for (int k = 0; k < 5; k++)
        sum += arr[k].a * 1000u + arr[k].b * 10u + (uint)(int)arr[k].c;
    Tiny copy = arr[4];
    out[i] = sum + copy.a;
}

// Sizes and member offsets as the device sees them: offsets are found by
// writing a member and finding its bytes through a union.
typedef union {
    Item item;
    uchar raw[8];
} ItemBytes;

typedef union {
    Mixed m;
    uchar raw[32];
} MixedBytes;

__kernel void layout(__global uint *out)
{
    out[0] = sizeof(Item);
    out[1] = sizeof(Tiny);
    out[2] = sizeof(Pun);
    out[3] = sizeof(Tagged);
    out[4] = sizeof(Wrapped);
    out[5] = sizeof(Mixed);
    out[6] = sizeof(Wide);
    ItemBytes ib;
    for (int k = 0; k < 8; k++)
        ib.raw[k] = 0;
    ib.item.flags = 0xab;
    ib.item.id = (short)0x1234;
    uint flags_at = 99, id_at = 99;
    for (int k = 0; k < 8; k++) {
        if (ib.raw[k] == 0xab)
            flags_at = k;
    }
    for (int k = 0; k < 7; k++) {
        if (ib.raw[k] == 0x34 && ib.raw[k + 1] == 0x12)
            id_at = k;
    }
    out[7] = flags_at;
    out[8] = id_at;
    MixedBytes mb;
    for (int k = 0; k < 32; k++)
        mb.raw[k] = 0;
    mb.m.l = 0x0102030405060708l;
    mb.m.v = (uchar3)(0xa1, 0xa2, 0xa3);
    mb.m.s[1] = (short)0x7172;
    uint l_at = 99, v_at = 99, s1_at = 99;
    for (int k = 0; k < 32; k++) {
        if (mb.raw[k] == 0x08 && l_at == 99)
            l_at = k;
        if (mb.raw[k] == 0xa1)
            v_at = k;
        if (mb.raw[k] == 0x72)
            s1_at = k;
    }
    out[9] = l_at;
    out[10] = v_at;
    out[11] = s1_at;
}

// Initializer lists of unions and of structs with narrow members,
// with designators.
__kernel void init_lists(__global uint *out)
{
    Pun p = { 1.0f };
    Tagged t = { -3, { .u = 0x01020304u }, 7 };
    Item it = { .id = -2, .flags = 200 };
    out[0] = p.u;
    out[1] = t.tag + t.value.b[0] * 100 + t.count * 10000;
    out[2] = it.flags + (it.id << 16) + (uint)it.x;
}

typedef struct {
    bool ok;
    uchar4 v;
    struct {
        char c;
        short s;
    } inner[3];
} Deep;

// Swizzles and run-time lanes of a vector member, arrays of structs in a
// struct, a bool member; a neighbour's element written in part.
__kernel void deep(__global Deep *d, __global Deep *out, int k)
{
    uint i = get_global_id(0);
    d[i].v.xy = d[i].v.wz;
    d[i].v[k & 3] = 7;
    d[i].inner[k].c = (char)d[i].inner[2 - k].s;
    d[i].ok = !d[i].ok;
    Deep copy = d[i];
    copy.inner[1].s += 1;
    out[i ^ 1].inner[0] = copy.inner[1];
}

// The same buffer seen as bytes, and pointers into it.
__kernel void casts(__global Item *items)
{
    uint i = get_global_id(0);
    __global uchar *bytes = (__global uchar *)items;
    if (i != 1) {
        bytes[i * 8 + 4] = (uchar)(i + 1);
    } else {
        __global Item *p = items + 1;
        p->flags = 3;
        (*p).id = 4;
        p[1].x = -1.0f;
    }
}

// Program-scope constant tables of structs with narrow members and of
// unions, read with a run-time index.
__constant Item table[3] = {
    { 1.5f, 10, -1 },
    { .id = 300, .flags = 255 },
    { -2.0f, 7, -32768 },
};
__constant Pun one = { 1.0f };
__constant Tagged tag = { 'x', { .b = { 1, 2, 3, 4 } }, 65535 };

__kernel void constant_tables(__global Item *out, __global uint *words)
{
    uint i = get_global_id(0);
    out[i] = table[i % 3];
    if (i == 0) {
        words[0] = one.u;
        words[1] = tag.value.u;
        words[2] = (uint)tag.tag + tag.count;
    }
}

// A __local pointer argument to structs with narrow members (3 bytes
// each: neighbours share words).
__kernel void local_arg(__global const Tiny *in, __global Tiny *out, __local Tiny *tile)
{
    uint l = get_local_id(0);
    uint n = get_local_size(0);
    uint i = get_global_id(0);
    tile[l] = in[i];
    tile[l].c = (char)(tile[l].c ^ 0x55);
    barrier(CLK_LOCAL_MEM_FENCE);
    Tiny t = tile[n - 1 - l];
    t.a = (uchar)(t.a + tile[l].b);
    out[i] = t;
}

// A helper's private array of records and the kernel's private float
// array are different variables even where their handles coincide.
uint tiny_sum(uint seed)
{
    Tiny arr[3];
    Tiny *p = arr;
    for (int k = 0; k < 3; k++) {
        p[k].a = (uchar)(seed + k);
        p[k].b = 1;
        p[k].c = 2;
    }
    return p[0].a + p[1].a + p[2].a + arr[1].b + arr[2].c;
}

__kernel void scopes(__global float *out)
{
    float f[4];
    uint i = get_global_id(0);
    uint s = tiny_sum(i);
    float *q = f;
    for (int k = 0; k < 4; k++)
        q[k] = (float)(s + k);
    out[i] = q[1] + f[3];
}

typedef struct {
    float x, y;
    int n[2];
} Plain;

typedef union {
    float4 v;
    Plain p;
    uint u[4];
} Quad;

// A struct without narrow members inside a union, read and written whole;
// `?:` choosing between unions; a uchar3 and a long member of a private
// struct updated in place.
__kernel void plain_in_union(__global Quad *q, __global Mixed *m)
{
    uint i = get_global_id(0);
    Quad a = q[i];
    Plain p = a.p;
    p.x += 1.0f;
    p.n[1] = p.n[0] - 5;
    Quad b;
    b.p = p;
    b.u[3] = a.u[3] ^ 0xffu;
    q[i] = (i & 1) ? a : b;

    Mixed x = m[i];
    x.v.yz = x.v.zy;
    x.v.x += (uchar)i;
    x.l = -x.l * 3;
    x.c = (char)x.s[0];
    m[i] = x;
}

// A packed struct whose long lies on a 4-byte boundary (and, in an array,
// every other one on a 4-byte boundary only): held as words too.
typedef struct __attribute__((packed)) {
    int a;
    long b;
} PackedPair;

__kernel void packed_pairs(__global PackedPair *p)
{
    uint i = get_global_id(0);
    PackedPair x = p[i];
    x.b += x.a;
    x.a = (int)i;
    p[i] = x;
}

// A by-value struct too large for push constants: read from the launch
// block.
typedef struct {
    uchar data[300];
    short tail;
} Big;

__kernel void big_by_value(__global int *out, Big b)
{
    uint i = get_global_id(0);
    out[i] = b.data[i] * 2 + b.tail;
}
