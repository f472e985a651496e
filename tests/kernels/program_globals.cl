// options: -cl-std=CL2.0
// Program-scope __global variables (OpenCL C 2.0 s6.8): initialised once
// per program, shared by every work-item, kept from one launch to the next.

struct particle {
    float4 position;
    int hits;
    float weight;
};

global int counter = 5;
global atomic_int tickets;
global float table[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
global int grid[3][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } };
global struct particle particles[2] = { { (float4)(1.0f, 2.0f, 3.0f, 4.0f), 7, 0.5f },
                                        { (float4)(-1.0f), -7, 2.5f } };
// 12 bytes: not a power of two, so it may need padding before it.
global struct triple { int x, y, z; } triple = { 10, 20, 30 };
global uchar bytes[6] = { 1, 2, 3, 4, 5, 6 };
global long big = 0x100000000L;
global uint untouched;

// The initial values, as the first launch sees them.
kernel void read_initial(global int *ints, global float *floats, global long *longs)
{
    if (get_global_id(0) != 0)
        return;
    ints[0] = counter;
    ints[1] = atomic_load(&tickets);
    ints[2] = particles[0].hits;
    ints[3] = particles[1].hits;
    ints[4] = (int)untouched;
    for (int i = 0; i < 6; i++)
        ints[5 + i] = bytes[i];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            ints[11 + r * 4 + c] = grid[r][c];
    ints[23] = triple.x;
    ints[24] = triple.y;
    ints[25] = triple.z;
    for (int i = 0; i < 4; i++)
        floats[i] = table[i];
    floats[4] = particles[0].position.x + particles[0].position.w;
    floats[5] = particles[1].position.y;
    floats[6] = particles[0].weight + particles[1].weight;
    longs[0] = big;
}

// Every work-item counts itself, through both atomic forms.
kernel void count(void)
{
    atomic_inc(&counter);
    atomic_fetch_add(&tickets, 2);
}

// A later launch sees what `count` left.
kernel void report(global int *out)
{
    if (get_global_id(0) == 0) {
        out[0] = counter;
        out[1] = atomic_load(&tickets);
    }
}

// Writes with run-time indices: each work-item owns one element.
kernel void scale_tables(float factor)
{
    size_t i = get_global_id(0);
    if (i < 4)
        table[i] *= factor;
    if (i < 12)
        grid[i / 4][i % 4] += (int)i * 100;
    if (i < 2) {
        particles[i].hits += (int)i + 1;
        particles[i].position.z = factor * (float)i;
    }
    if (i < 6)
        bytes[i] = (uchar)(bytes[i] * 3);
    if (i == 0)
        big += 5;
}

kernel void read_tables(global float *floats, global int *ints, global long *longs)
{
    size_t i = get_global_id(0);
    if (i < 4)
        floats[i] = table[i];
    if (i < 12)
        ints[i] = grid[i / 4][i % 4];
    if (i < 2) {
        ints[12 + i] = particles[i].hits;
        floats[4 + i] = particles[i].position.z;
    }
    if (i < 6)
        ints[14 + i] = bytes[i];
    if (i == 0)
        longs[0] = big;
}

// Pointers to program-scope variables, passed to helpers.
static void add_to(global int *target, int amount)
{
    *target += amount;
}

static float sum_of(global const float *values, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
        sum += values[i];
    return sum;
}

kernel void through_pointers(global float *out, int amount)
{
    if (get_global_id(0) != 0)
        return;
    add_to(&counter, amount);
    add_to(&grid[2][1], amount);
    global float *second = table + 1;
    out[0] = sum_of(table, 4);
    out[1] = sum_of(second, 3);
    out[2] = (float)counter;
    out[3] = (float)grid[2][1];
}

// Declared before its definition: both name one object.
extern global int launches;

static int launches_so_far(void)
{
    return launches;
}

global int launches = 100;

// A function's static variables are program-scope objects too.
kernel void count_calls(global int *out)
{
    static int calls;
    static global float scale = 0.5f;
    if (get_global_id(0) == 0) {
        out[0] = calls++;
        out[1] = launches_so_far();
        launches++;
        out[2] = (int)(scale * 10.0f);
    }
}

// A pointer kept from one launch to the next: each launch reads where the
// last one left it and moves it on.
global int walk[8] = { 10, 11, 12, 13, 14, 15, 16, 17 };
global int *cursor = walk + 1;
global int *nowhere;

kernel void step(global int *out)
{
    if (get_global_id(0) != 0)
        return;
    out[0] = *cursor;
    out[1] = cursor - walk;
    out[2] = nowhere == 0;
    cursor = cursor + 2;
    nowhere = &walk[7];
    out[3] = *nowhere;
}
